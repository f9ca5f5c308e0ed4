// A static HTTP server over a directory on 127.0.0.1, standing in for a remote one in the
// guides: GET and HEAD with single byte ranges (as nginx, S3 or a CDN serve them), 404 for
// anything missing, never a path outside the directory.
import { readFile } from "node:fs/promises";
import http from "node:http";
import path from "node:path";

const TYPES = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".mjs": "text/javascript", ".json": "application/json" };

/** Serves `dir`; resolves `{ url, close() }` (`url` ends with a slash). */
export async function serveDirectory(dir) {
  const server = http.createServer(async (req, res) => {
    const pathname = decodeURIComponent(new URL(req.url, "http://x").pathname);
    const file = path.join(dir, pathname);
    if (!file.startsWith(dir + path.sep) || (req.method !== "GET" && req.method !== "HEAD")) return res.writeHead(404).end();
    let body;
    try {
      body = await readFile(file);
    } catch {
      return res.writeHead(404).end();
    }
    const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? "");
    const type = TYPES[path.extname(file)] ?? "application/octet-stream";
    const send = (status, headers, bytes) => res.writeHead(status, { "Content-Type": type, "Content-Length": bytes.length, "Accept-Ranges": "bytes", ...headers }).end(req.method === "GET" ? bytes : undefined);
    if (range === null) return send(200, {}, body);
    const size = body.length;
    const start = range[1] === "" ? Math.max(0, size - Number(range[2])) : Number(range[1]);
    const end = range[1] !== "" && range[2] !== "" ? Math.min(Number(range[2]), size - 1) : size - 1;
    if (start >= size) return res.writeHead(416, { "Content-Range": `bytes */${size}` }).end();
    return send(206, { "Content-Range": `bytes ${start}-${end}/${size}` }, body.subarray(start, end + 1));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
