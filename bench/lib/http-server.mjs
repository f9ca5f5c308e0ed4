// A static file server on 127.0.0.1 for the HTTP benchmarks (http.mjs, browser.mjs), run
// in a worker thread so that serving does not compete with the measuring script's event
// loop. Single byte ranges (suffixes too), an optional latency added to every response,
// extra headers on every response (browser.mjs: cross-origin isolation, no caching).
//
// Files are held in memory after their first request, as a server with a page cache and
// sendfile would serve them: on the small benchmark machines the server shares the CPUs
// with the readers being measured, so it should take as little of them as it can.
import { once } from "node:events";
import { readFile, stat } from "node:fs/promises";
import http from "node:http";
import { extname, join, normalize, sep } from "node:path";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";

const TYPES = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".mjs": "text/javascript", ".json": "application/json" };

/**
 * Starts the server in a worker thread. `mounts` maps URL path prefixes ("/", "/data/")
 * to directories (the longest prefix wins); `latency` is in milliseconds; `headers` go on
 * every response. Resolves `{ url, close() }` (url ends in "/").
 */
export async function startFileServer({ mounts, latency = 0, headers = {} }) {
  const worker = new Worker(new URL(import.meta.url), { workerData: { mounts, latency, headers } });
  const [port] = await once(worker, "message");
  return {
    url: `http://127.0.0.1:${port}/`,
    close: async () => {
      worker.postMessage("stop");
      await once(worker, "exit");
    },
  };
}

/** The file a URL path names under `mounts` (index.html for a directory), or undefined when it is outside every mount. */
function resolvePath(mounts, pathname) {
  const prefix = Object.keys(mounts)
    .filter((p) => pathname.startsWith(p))
    .sort((a, b) => b.length - a.length)[0];
  if (prefix === undefined) return undefined;
  const root = mounts[prefix];
  const rel = pathname.slice(prefix.length);
  const path = normalize(join(root, rel === "" || rel.endsWith("/") ? `${rel}index.html` : rel));
  return path.startsWith(root.endsWith(sep) ? root : root + sep) ? path : undefined;
}

/** The `[start, end]` (inclusive) a Range header asks for, null for the whole file, or "unsatisfiable". */
function byteRange(header, size) {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header ?? "");
  if (m === null || (m[1] === "" && m[2] === "")) return null;
  const start = m[1] === "" ? Math.max(0, size - Number(m[2])) : Number(m[1]);
  const end = m[1] !== "" && m[2] !== "" ? Math.min(size - 1, Number(m[2])) : size - 1;
  return start >= size ? "unsatisfiable" : [start, end];
}

async function serve({ mounts, latency, headers }) {
  const files = new Map();
  const server = http.createServer(async (req, res) => {
    if (latency > 0) await new Promise((r) => setTimeout(r, latency));
    const path = resolvePath(mounts, decodeURIComponent(new URL(req.url, "http://x").pathname));
    if (path === undefined) return res.writeHead(400, headers).end();
    let size;
    try {
      const s = await stat(path);
      if (!s.isFile()) throw new Error("not a file");
      size = s.size;
    } catch {
      return res.writeHead(404, headers).end();
    }
    const type = { "Content-Type": TYPES[extname(path)] ?? "application/octet-stream", "Accept-Ranges": "bytes" };
    const range = byteRange(req.headers.range, size);
    if (range === "unsatisfiable") return res.writeHead(416, { ...headers, "Content-Range": `bytes */${size}` }).end();
    const [start, end] = range ?? [0, size - 1];
    if (range === null) res.writeHead(200, { ...headers, ...type, "Content-Length": size });
    else res.writeHead(206, { ...headers, ...type, "Content-Range": `bytes ${start}-${end}/${size}`, "Content-Length": end - start + 1 });
    if (req.method === "HEAD") return res.end();
    let bytes = files.get(path);
    if (bytes === undefined) {
      bytes = await readFile(path);
      files.set(path, bytes);
    }
    res.end(bytes.subarray(start, end + 1));
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  parentPort.postMessage(server.address().port);
  parentPort.on("message", () => {
    server.close(() => process.exit(0));
    server.closeAllConnections(); // keep-alive connections would hold close() open
  });
}

if (!isMainThread && workerData?.mounts) await serve(workerData);
