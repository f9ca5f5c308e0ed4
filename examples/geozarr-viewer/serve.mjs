#!/usr/bin/env node
// A static server for the viewer with HTTP Range support (what HttpStore needs): the page
// from dist/ at /, a store directory at /data/. Usage: node serve.mjs STORE_DIR [PORT]
import { createReadStream, existsSync, readFileSync, statSync } from "node:fs";
import http from "node:http";
import { extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".css": "text/css",
  ".map": "application/json",
  ".json": "application/json",
  ".geojson": "application/geo+json",
};

/**
 * Starts a server on 127.0.0.1: `pageDir` at `/`, and the store at `/data/` — either a
 * directory or a function returning a key's bytes (e.g. a MemoryStore's map). Resolves
 * `{ url, close }`.
 */
export function startServer({ pageDir, storeDir, getKey, port = 0 }) {
  const server = http.createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    if (path.startsWith("/data/")) {
      const key = path.slice("/data/".length);
      let body;
      if (getKey !== undefined) body = getKey(key);
      else {
        const file = safeJoin(storeDir, key);
        if (file !== undefined && existsSync(file) && statSync(file).isFile()) body = readFileSync(file);
      }
      if (body === undefined) return res.writeHead(404).end();
      return sendBytes(req, res, body, "application/octet-stream");
    }
    const file = safeJoin(pageDir, path === "/" ? "index.html" : path.slice(1));
    if (file === undefined || !existsSync(file) || !statSync(file).isFile()) return res.writeHead(404).end();
    res.writeHead(200, { "Content-Type": TYPES[extname(file)] ?? "application/octet-stream" });
    createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => {
    server.listen(port, "127.0.0.1", () => {
      resolve({ url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}

function safeJoin(root, rel) {
  const p = normalize(join(root, rel));
  return p === root || p.startsWith(root.endsWith(sep) ? root : root + sep) ? p : undefined;
}

function sendBytes(req, res, value, type) {
  const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? "");
  if (range === null) {
    res.writeHead(200, { "Content-Length": value.length, "Content-Type": type, "Accept-Ranges": "bytes" });
    return res.end(req.method === "HEAD" ? undefined : value);
  }
  const size = value.length;
  const start = range[1] === "" ? Math.max(0, size - Number(range[2])) : Number(range[1]);
  const end = range[1] !== "" && range[2] !== "" ? Math.min(Number(range[2]), size - 1) : size - 1;
  if (start >= size) return res.writeHead(416, { "Content-Range": `bytes */${size}` }).end();
  res.writeHead(206, { "Content-Range": `bytes ${start}-${end}/${size}`, "Content-Length": end - start + 1, "Content-Type": type });
  res.end(req.method === "HEAD" ? undefined : value.subarray(start, end + 1));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const storeDir = process.argv[2];
  if (storeDir === undefined) {
    console.error("usage: node serve.mjs STORE_DIR [PORT]   (run node build.mjs first)");
    process.exit(2);
  }
  const { url } = await startServer({ pageDir: join(import.meta.dirname, "dist"), storeDir: normalize(storeDir), port: Number(process.argv[3] ?? 8080) });
  console.log(`viewer at ${url} (store at ${url}data/)`);
}
