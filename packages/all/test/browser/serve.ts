// A server for the browser test on 127.0.0.1: the built page at `/`, a store directory at
// `/data/` (with HTTP Range), every response cross-origin isolated (COOP + COEP), except
// under `/plain/` (the same files, not isolated: no SharedArrayBuffer there).
import { existsSync, readFileSync, statSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, sep } from "node:path";

const TYPES: Record<string, string> = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".map": "application/json" };

const ISOLATED = {
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Embedder-Policy": "require-corp",
  "Cross-Origin-Resource-Policy": "same-origin",
};

/** Starts the server; resolves its base URL and how to stop it. */
export function startServer(pageDir: string, storeDir: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    let path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    const plain = path.startsWith("/plain/");
    if (plain) path = path.slice("/plain".length);
    const headers: Record<string, string | number> = plain ? {} : { ...ISOLATED };
    const [root, rel] = path.startsWith("/data/") ? [storeDir, path.slice("/data/".length)] : [pageDir, path === "/" ? "index.html" : path.slice(1)];
    const file = safeJoin(root, rel);
    if (file === undefined || !existsSync(file) || !statSync(file).isFile()) return res.writeHead(404, headers).end();
    const body = readFileSync(file);
    headers["Content-Type"] = TYPES[extname(file)] ?? "application/octet-stream";
    headers["Accept-Ranges"] = "bytes";
    const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? "");
    if (range === null) {
      headers["Content-Length"] = body.length;
      return res.writeHead(200, headers).end(req.method === "HEAD" ? undefined : body);
    }
    const size = body.length;
    const start = range[1] === "" ? Math.max(0, size - Number(range[2])) : Number(range[1]);
    const end = range[1] !== "" && range[2] !== "" ? Math.min(Number(range[2]), size - 1) : size - 1;
    if (start >= size) return res.writeHead(416, { ...headers, "Content-Range": `bytes */${size}` }).end();
    headers["Content-Range"] = `bytes ${start}-${end}/${size}`;
    headers["Content-Length"] = end - start + 1;
    res.writeHead(206, headers).end(req.method === "HEAD" ? undefined : body.subarray(start, end + 1));
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}

function safeJoin(root: string, rel: string): string | undefined {
  const p = normalize(join(root, rel));
  return p.startsWith(root.endsWith(sep) ? root : root + sep) ? p : undefined;
}
