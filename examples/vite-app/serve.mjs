// A static server for the built app with HTTP Range support (what HttpStore needs): dist/
// at /, a store directory at /data/, every response cross-origin isolated (COOP + COEP, so
// the page gets SharedArrayBuffer and the worker pool). Usage: node serve.mjs STORE_DIR [PORT]
import { existsSync, readFileSync, statSync } from "node:fs";
import http from "node:http";
import { extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const TYPES = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".css": "text/css", ".map": "application/json", ".json": "application/json" };

/** The headers that make a page cross-origin isolated (and let it load its own resources). */
export const ISOLATED = {
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Embedder-Policy": "require-corp",
  "Cross-Origin-Resource-Policy": "same-origin",
};

/**
 * A connect-style handler serving `storeDir` under `/data/` (with Range); other paths go
 * to `next` (Vite's dev server) or get a 404.
 */
export function storeMiddleware(storeDir, headers = ISOLATED) {
  const root = resolve(storeDir);
  return (req, res, next) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    if (!path.startsWith("/data/")) return next ? next() : res.writeHead(404, headers).end();
    const file = safeJoin(root, path.slice("/data/".length));
    if (file === undefined || !existsSync(file) || !statSync(file).isFile()) return res.writeHead(404, headers).end();
    sendBytes(req, res, readFileSync(file), "application/octet-stream", headers);
  };
}

/**
 * Starts a server on 127.0.0.1: `pageDir` at `/`, `storeDir` at `/data/`, cross-origin
 * isolated unless `isolated` is false. Resolves `{ url, close }`.
 */
export function startServer({ pageDir, storeDir, port = 0, isolated = true }) {
  const headers = isolated ? ISOLATED : {};
  const store = storeMiddleware(storeDir, headers);
  const server = http.createServer((req, res) =>
    store(req, res, () => {
      const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
      const file = safeJoin(resolve(pageDir), path === "/" ? "index.html" : path.slice(1));
      if (file === undefined || !existsSync(file) || !statSync(file).isFile()) return res.writeHead(404, headers).end();
      sendBytes(req, res, readFileSync(file), TYPES[extname(file)] ?? "application/octet-stream", headers);
    }),
  );
  return new Promise((done) => {
    server.listen(port, "127.0.0.1", () => {
      done({ url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}

function safeJoin(root, rel) {
  const p = normalize(join(root, rel));
  return p === root || p.startsWith(root.endsWith(sep) ? root : root + sep) ? p : undefined;
}

function sendBytes(req, res, value, type, extra) {
  const headers = { ...extra, "Content-Type": type, "Accept-Ranges": "bytes" };
  const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? "");
  if (range === null) {
    res.writeHead(200, { ...headers, "Content-Length": value.length });
    return res.end(req.method === "HEAD" ? undefined : value);
  }
  const size = value.length;
  const start = range[1] === "" ? Math.max(0, size - Number(range[2])) : Number(range[1]);
  const end = range[1] !== "" && range[2] !== "" ? Math.min(Number(range[2]), size - 1) : size - 1;
  if (start >= size) return res.writeHead(416, { ...headers, "Content-Range": `bytes */${size}` }).end();
  res.writeHead(206, { ...headers, "Content-Range": `bytes ${start}-${end}/${size}`, "Content-Length": end - start + 1 });
  res.end(req.method === "HEAD" ? undefined : value.subarray(start, end + 1));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const storeDir = process.argv[2];
  if (storeDir === undefined) {
    console.error("usage: node serve.mjs STORE_DIR [PORT]   (run pnpm build first)");
    process.exit(2);
  }
  const { url } = await startServer({ pageDir: join(import.meta.dirname, "dist"), storeDir, port: Number(process.argv[3] ?? 8080) });
  console.log(`app at ${url} (store at ${url}data/)`);
}
