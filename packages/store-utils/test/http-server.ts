/**
 * A real HTTP/1.1 server on 127.0.0.1 serving a directory with Range support (206 +
 * Content-Range, suffix ranges), optional added latency, and faults on request: reset
 * the connection mid-body, or close it cleanly after half the announced body. It
 * records every request. Adapted from @zarr/store-http's test server.
 */
import { once } from "node:events";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

/** How the server behaves; the fault counters count down as GETs use them. */
export interface Behaviour {
  /** Milliseconds before each answer. */
  latency?: number;
  /** Next N GETs of a body: announce the full length, send half, reset the connection. */
  reset?: number;
  /** Next N GETs of a body: announce the full length, send half, close the connection cleanly. */
  short?: number;
  /** Only GETs of keys matching this are faulted (default: all). */
  faultOnly?: RegExp;
}

export interface SeenRequest {
  method: string;
  /** The key relative to the root (`a/c/0/0`). */
  path: string;
  range: string | undefined;
}

export interface TestServer {
  readonly url: string;
  readonly requests: SeenRequest[];
  behaviour: Behaviour;
  reset(): void;
  close(): Promise<void>;
}

function answerRange(header: string | undefined, size: number): { start: number; end: number } | undefined {
  const m = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header);
  if (m === null || (m[1] === "" && m[2] === "")) return undefined;
  if (m[1] === "") return { start: Math.max(0, size - Number(m[2])), end: size - 1 };
  return { start: Number(m[1]), end: m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1) };
}

/** Serves `root` on an ephemeral port of 127.0.0.1. */
export async function startServer(root: string, behaviour: Behaviour = {}): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const state = {
    behaviour,
    take(counter: "reset" | "short", key: string): boolean {
      const b = state.behaviour;
      const n = b[counter] ?? 0;
      if (n <= 0 || (b.faultOnly !== undefined && !b.faultOnly.test(key))) return false;
      b[counter] = n - 1;
      return true;
    },
  };
  const server = http.createServer(async (req, res) => {
    const key = decodeURIComponent((req.url ?? "/").split("?")[0]).slice(1);
    requests.push({ method: req.method ?? "", path: key, range: req.headers.range });
    const { latency } = state.behaviour;
    if (latency) await new Promise((r) => setTimeout(r, latency));
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405).end();
      return;
    }
    const file = path.join(root, ...key.split("/"));
    if (key.split("/").some((s) => s === ".." || s === "") || !file.startsWith(root)) {
      res.writeHead(400).end();
      return;
    }
    let body: Buffer;
    try {
      body = await fs.promises.readFile(file);
    } catch {
      res.writeHead(404).end("no such key");
      return;
    }
    const range = answerRange(req.headers.range, body.length);
    if (range !== undefined) {
      res.statusCode = 206;
      res.setHeader("Content-Range", `bytes ${range.start}-${range.end}/${body.length}`);
      body = body.subarray(range.start, range.end + 1);
    }
    res.setHeader("Accept-Ranges", "bytes");
    res.setHeader("Content-Length", body.length);
    if (req.method === "HEAD") {
      res.end();
      return;
    }
    if (body.length > 1 && state.take("reset", key)) {
      res.write(body.subarray(0, body.length >> 1), () => res.socket?.resetAndDestroy());
      return;
    }
    if (body.length > 1 && state.take("short", key)) {
      res.write(body.subarray(0, body.length >> 1), () => res.socket?.end());
      return;
    }
    res.end(body);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    get behaviour() {
      return state.behaviour;
    },
    set behaviour(b: Behaviour) {
      state.behaviour = b;
    },
    reset() {
      requests.length = 0;
      state.behaviour = {};
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
