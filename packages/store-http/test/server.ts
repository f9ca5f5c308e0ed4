/**
 * A real HTTP/1.1 server on 127.0.0.1 for the tests: serves a directory with proper
 * Range support (206 + Content-Range, suffix ranges, 416) and misbehaves on request —
 * ignores Range, omits Content-Length, fails N times (503/429 with or without
 * Retry-After), answers missing files with 403, adds latency, resets the connection
 * mid-body, sends a body shorter than Content-Length, hangs, lies in Content-Range —
 * and accepts PUT/DELETE when writable. It records every request it sees.
 */
import { once } from "node:events";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

/** How the server behaves; counters (`times`, `reset`, ...) count down as requests use them. */
export interface ServerBehaviour {
  /** Answer range requests with 200 and the whole body. */
  ignoreRange?: boolean;
  /** Omit Content-Length (chunked transfer encoding). */
  chunked?: boolean;
  /** Status for a missing file (default 404; 403 like S3 public buckets). */
  missingStatus?: number;
  /** Wait this many ms before answering. */
  latency?: number;
  /** Answer the next `times` requests with `status` (and `Retry-After: retryAfter` if given). */
  fail?: { status: number; times: number; retryAfter?: string };
  /** Next N GETs: announce the full length, send half the body, then reset the connection. */
  reset?: number;
  /** Next N GETs: announce the full length, send half the body, then close the connection cleanly. */
  short?: number;
  /** Next N requests: never answer. */
  hang?: number;
  /** Next N GETs: send the headers and half the body, then stall. */
  hangMidBody?: number;
  /** Next N 206 responses: a Content-Range one byte off from what is sent. */
  badContentRange?: number;
  /** Refuse HEAD with 405. */
  noHead?: boolean;
  /** Require this exact Authorization header, else 401. */
  requireAuth?: string;
  /** Accept PUT and DELETE (otherwise 405). */
  writable?: boolean;
}

/** One request as the server saw it. */
export interface SeenRequest {
  method: string;
  /** The raw request target (`/a%20b/c?x=1`). */
  url: string;
  /** The decoded key path relative to the root (`a b/c`). */
  path: string;
  headers: http.IncomingHttpHeaders;
}

/** A running test server. */
export interface TestServer {
  /** `http://127.0.0.1:<port>/` */
  readonly url: string;
  readonly root: string;
  /** Every request seen since the last `reset()`. */
  readonly requests: SeenRequest[];
  /** The current behaviour; assign fields to change it. */
  behaviour: ServerBehaviour;
  /** The most requests that were in progress at once since the last `reset()`. */
  readonly maxInFlight: number;
  /** Forgets the requests seen and restores normal behaviour. */
  reset(): void;
  close(): Promise<void>;
}

const take = (b: ServerBehaviour, counter: "reset" | "short" | "hang" | "hangMidBody" | "badContentRange"): boolean => {
  const n = b[counter] ?? 0;
  if (n <= 0) return false;
  b[counter] = n - 1;
  return true;
};

/** The file a request path names, or undefined when the path escapes the root or is malformed. */
function fileFor(root: string, target: string): string | undefined {
  const pathname = target.split("?")[0];
  try {
    const segments = pathname.split("/").slice(1).map(decodeURIComponent);
    if (segments.some((s) => s === "." || s === ".." || s.includes("/") || s.includes("\0"))) return undefined;
    return path.join(root, ...segments);
  } catch {
    return undefined;
  }
}

type RangeAnswer = { kind: "full" } | { kind: "partial"; start: number; end: number } | { kind: "unsatisfiable" };

/** RFC 9110 single-range semantics; anything else (several ranges, garbage) is ignored, i.e. 200. */
function answerRange(header: string | undefined, size: number): RangeAnswer {
  const m = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header);
  if (m === null || (m[1] === "" && m[2] === "")) return { kind: "full" };
  if (m[1] === "") {
    const n = Number(m[2]);
    if (n === 0 || size === 0) return { kind: "unsatisfiable" };
    return { kind: "partial", start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const last = m[2] === "" ? size - 1 : Number(m[2]);
  if (last < start) return { kind: "full" };
  if (start >= size) return { kind: "unsatisfiable" };
  return { kind: "partial", start, end: Math.min(last, size - 1) };
}

/** Starts a server for `root` on an ephemeral port of 127.0.0.1. */
export async function startServer(root: string): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  let behaviour: ServerBehaviour = {};
  let inFlight = 0;
  let maxInFlight = 0;

  function send(req: http.IncomingMessage, res: http.ServerResponse, status: number, headers: http.OutgoingHttpHeaders, body: Uint8Array): void {
    const b = behaviour;
    res.statusCode = status;
    for (const [name, value] of Object.entries(headers)) if (value !== undefined) res.setHeader(name, value);
    if (req.method === "HEAD") {
      res.setHeader("Content-Length", body.length);
      res.end();
      return;
    }
    const half = body.subarray(0, body.length >> 1);
    if (body.length > 1 && req.method === "GET") {
      if (take(b, "reset")) {
        res.setHeader("Content-Length", body.length);
        res.write(half, () => res.socket?.resetAndDestroy());
        return;
      }
      if (take(b, "short")) {
        res.setHeader("Content-Length", body.length);
        res.write(half, () => res.socket?.end());
        return;
      }
      if (take(b, "hangMidBody")) {
        res.setHeader("Content-Length", body.length);
        res.write(half);
        return;
      }
    }
    if (b.chunked) {
      res.setHeader("Transfer-Encoding", "chunked");
      // Two writes, so the body really arrives in pieces.
      res.write(half);
      res.end(body.subarray(half.length));
      return;
    }
    res.setHeader("Content-Length", body.length);
    res.end(body);
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const b = behaviour;
    const target = req.url ?? "/";
    const file = fileFor(root, target);
    requests.push({ method: req.method ?? "", url: target, path: file === undefined ? "" : path.relative(root, file), headers: req.headers });
    if (b.latency) await new Promise((r) => setTimeout(r, b.latency));
    if (take(b, "hang")) return;
    if (b.fail && b.fail.times > 0) {
      b.fail.times--;
      const headers: http.OutgoingHttpHeaders = b.fail.retryAfter === undefined ? {} : { "Retry-After": b.fail.retryAfter };
      send(req, res, b.fail.status, headers, Buffer.from("try again"));
      return;
    }
    if (b.requireAuth !== undefined && req.headers.authorization !== b.requireAuth) {
      send(req, res, 401, {}, Buffer.from("unauthorized"));
      return;
    }
    if (file === undefined) {
      send(req, res, 400, {}, Buffer.from("bad path"));
      return;
    }
    const missing = b.missingStatus ?? 404;
    switch (req.method) {
      case "HEAD":
      case "GET": {
        if (req.method === "HEAD" && b.noHead) {
          send(req, res, 405, { Allow: "GET" }, Buffer.alloc(0));
          return;
        }
        let body: Buffer;
        try {
          body = await fs.promises.readFile(file);
        } catch {
          send(req, res, missing, {}, Buffer.from("no such key"));
          return;
        }
        const answer = b.ignoreRange ? ({ kind: "full" } as const) : answerRange(req.headers.range, body.length);
        if (answer.kind === "unsatisfiable") {
          send(req, res, 416, { "Content-Range": `bytes */${body.length}` }, Buffer.alloc(0));
        } else if (answer.kind === "partial") {
          const shift = take(b, "badContentRange") ? 1 : 0;
          const contentRange = `bytes ${answer.start + shift}-${answer.end + shift}/${body.length}`;
          send(req, res, 206, { "Content-Range": contentRange, "Accept-Ranges": "bytes" }, body.subarray(answer.start, answer.end + 1));
        } else {
          send(req, res, 200, { "Accept-Ranges": b.ignoreRange ? "none" : "bytes" }, body);
        }
        return;
      }
      case "PUT": {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        if (!b.writable) {
          send(req, res, 405, { Allow: "GET, HEAD" }, Buffer.from("read-only"));
          return;
        }
        const existed = fs.existsSync(file);
        await fs.promises.mkdir(path.dirname(file), { recursive: true });
        await fs.promises.writeFile(file, Buffer.concat(chunks));
        send(req, res, existed ? 204 : 201, {}, Buffer.alloc(0));
        return;
      }
      case "DELETE": {
        if (!b.writable) {
          send(req, res, 405, { Allow: "GET, HEAD" }, Buffer.from("read-only"));
          return;
        }
        try {
          await fs.promises.unlink(file);
        } catch {
          send(req, res, 404, {}, Buffer.from("no such key"));
          return;
        }
        send(req, res, 204, {}, Buffer.alloc(0));
        return;
      }
      default:
        send(req, res, 405, {}, Buffer.alloc(0));
    }
  }

  const server = http.createServer((req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.on("close", () => inFlight--);
    handle(req, res).catch((error) => {
      if (!res.headersSent) res.statusCode = 500;
      res.end(String(error));
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/`,
    root,
    requests,
    get behaviour() {
      return behaviour;
    },
    set behaviour(value: ServerBehaviour) {
      behaviour = value;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    reset() {
      requests.length = 0;
      behaviour = {};
      maxInFlight = inFlight;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
