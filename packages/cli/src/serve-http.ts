/**
 * Serving a store over HTTP for local viewing (`zarr serve`): GET and HEAD of keys with
 * single byte ranges (RFC 9110: `bytes=a-b`, `bytes=a-`, `bytes=-n`), and CORS so a viewer
 * on another origin (a Vite dev server, a notebook) can read it. Read-only; no listings.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { type ByteRange, type ReadableStore, ZarrError } from "@zarr/spec";

/** What a request for one key asks: the whole value, a byte range, or something unservable. */
export type RangeRequest = { kind: "whole" } | { kind: "range"; range: ByteRange } | { kind: "invalid" };

/**
 * Parses a `Range` header. Only one `bytes` range is served; a header with several ranges
 * or another unit is ignored (the whole value is sent, as RFC 9110 allows), and a
 * syntactically broken one is `invalid` (416).
 *
 * @example
 * ```ts
 * parseRange("bytes=10-19"); // { kind: "range", range: { offset: 10, length: 10 } }
 * parseRange("bytes=-4");    // { kind: "range", range: { suffixLength: 4 } }
 * ```
 */
export function parseRange(header: string | undefined): RangeRequest {
  if (header === undefined) return { kind: "whole" };
  const m = /^\s*bytes\s*=\s*(.*)$/i.exec(header);
  if (m === null || m[1].includes(",")) return { kind: "whole" };
  const r = /^(\d*)-(\d*)$/.exec(m[1].trim());
  if (r === null || (r[1] === "" && r[2] === "")) return { kind: "invalid" };
  if (r[1] === "") {
    const suffix = Number(r[2]);
    return suffix > 0 ? { kind: "range", range: { suffixLength: suffix } } : { kind: "invalid" };
  }
  const start = Number(r[1]);
  if (r[2] === "") return { kind: "range", range: { offset: start } };
  const end = Number(r[2]);
  return end < start ? { kind: "invalid" } : { kind: "range", range: { offset: start, length: end - start + 1 } };
}

/** The absolute [start, end) a range covers of a value of `size` bytes, or undefined when it covers nothing. */
function resolveRange(range: ByteRange, size: number): [number, number] | undefined {
  if ("suffixLength" in range) return size === 0 ? undefined : [Math.max(0, size - range.suffixLength), size];
  if (range.offset >= size) return undefined;
  return [range.offset, range.length === undefined ? size : Math.min(size, range.offset + range.length)];
}

const METADATA_KEY = /(^|\/)(zarr\.json|\.zarray|\.zgroup|\.zattrs|\.zmetadata)$/;

/**
 * The store key a request path names, or undefined for one that is not a key: `..` or `.`
 * segments, empty segments (`//tmp/x`, `a//b`: a path that looks absolute is outside the
 * store, not a key with its slashes dropped), NUL, backslashes, and anything not starting
 * with one `/` (an absolute-form `http://…` target). Checked after percent-decoding, so
 * encoded escapes (`/..%2fx`, `/%2ftmp`, `%5c`) are refused too.
 */
export function keyOfPath(pathname: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  if (!decoded.startsWith("/")) return undefined;
  const key = decoded.slice(1);
  if (key === "" || key.endsWith("/") || /[\0\\]/.test(key)) return undefined;
  if (key.split("/").some((s) => s === "" || s === "." || s === "..")) return undefined;
  return key;
}

/** Options of {@link storeRequestHandler}. */
export interface ServeOptions {
  /** `Access-Control-Allow-Origin` (default `*`). */
  allowOrigin?: string;
  /** Called once per request after the response is sent (for a request log). */
  onRequest?: (line: { method: string; path: string; status: number; bytes: number }) => void;
}

/**
 * A `node:http` request handler serving `store` read-only: `GET`/`HEAD` of a key (200, or
 * 206 with `Content-Range` for a range; 404 missing; 416 unsatisfiable range; 400 a path
 * that is not a key; 405 other methods) and CORS preflights.
 *
 * @example
 * ```ts
 * http.createServer(storeRequestHandler(new FileSystemStore("data.zarr"))).listen(8000, "127.0.0.1");
 * ```
 */
export function storeRequestHandler(store: ReadableStore, options: ServeOptions = {}): (req: IncomingMessage, res: ServerResponse) => void {
  const origin = options.allowOrigin ?? "*";
  return (req, res) => {
    let bytes = 0;
    const send = (status: number, headers: Record<string, string | number>, body?: Uint8Array | string) => {
      const payload = typeof body === "string" ? Buffer.from(body) : body;
      res.writeHead(status, { "Access-Control-Allow-Origin": origin, "Access-Control-Expose-Headers": "Content-Length, Content-Range, Accept-Ranges", ...headers });
      if (payload !== undefined && req.method !== "HEAD") {
        bytes = payload.byteLength;
        res.end(payload);
      } else res.end();
      options.onRequest?.({ method: req.method ?? "?", path: req.url ?? "", status, bytes });
    };
    const fail = (status: number, message: string) => send(status, { "Content-Type": "text/plain; charset=utf-8", "Content-Length": Buffer.byteLength(message) }, message);
    void (async () => {
      if (req.method === "OPTIONS") {
        return send(204, {
          "Access-Control-Allow-Methods": "GET, HEAD, OPTIONS",
          "Access-Control-Allow-Headers": req.headers["access-control-request-headers"] ?? "Range",
          "Access-Control-Max-Age": 86400,
          "Content-Length": 0,
        });
      }
      if (req.method !== "GET" && req.method !== "HEAD") return send(405, { Allow: "GET, HEAD, OPTIONS", "Content-Length": 0 });
      // The raw path, not a parsed URL: URL parsing would quietly resolve `..` segments.
      const key = keyOfPath((req.url ?? "/").split(/[?#]/)[0]);
      if (key === undefined) return fail(400, "not a store key\n");
      const type = METADATA_KEY.test(key) ? "application/json" : "application/octet-stream";
      const common = { "Content-Type": type, "Accept-Ranges": "bytes", "Cache-Control": "no-cache" };
      const wanted = parseRange(req.headers.range);
      // A whole GET reads the value once; the size is asked for only where a header needs it,
      // and a store without getSize is read once for both.
      if (wanted.kind === "whole" && req.method === "GET") {
        const value = await store.get(key);
        if (value === undefined) return fail(404, `no key ${key}\n`);
        return send(200, { ...common, "Content-Length": value.byteLength }, value);
      }
      const whole = store.getSize === undefined ? await store.get(key) : undefined;
      const size = whole !== undefined ? whole.byteLength : await store.getSize?.(key);
      if (size === undefined) return fail(404, `no key ${key}\n`);
      if (wanted.kind === "invalid") return send(416, { ...common, "Content-Range": `bytes */${size}`, "Content-Length": 0 });
      if (wanted.kind === "whole") return send(200, { ...common, "Content-Length": size }); // HEAD
      const span = resolveRange(wanted.range, size);
      if (span === undefined) return send(416, { ...common, "Content-Range": `bytes */${size}`, "Content-Length": 0 });
      const [start, end] = span;
      let value: Uint8Array | undefined;
      if (req.method === "GET") {
        value = whole !== undefined ? whole.subarray(start, end) : store.getRange !== undefined ? await store.getRange(key, { offset: start, length: end - start }) : (await store.get(key))?.subarray(start, end);
        if (value === undefined) return fail(404, `no key ${key}\n`);
      }
      return send(206, { ...common, "Content-Range": `bytes ${start}-${end - 1}/${size}`, "Content-Length": end - start }, value);
    })().catch((error: unknown) => {
      if (res.headersSent) return res.destroy();
      const invalid = error instanceof ZarrError && error.code === "KEY_INVALID";
      fail(invalid ? 400 : 500, `${error instanceof Error ? error.message : String(error)}\n`);
    });
  };
}
