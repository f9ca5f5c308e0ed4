/**
 * `zarr serve`: a real server process on 127.0.0.1, read by raw HTTP requests (ranges,
 * CORS, bad paths), by our own HttpStore through `zarr get`, and by zarrita.js.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keyOfPath, parseRange } from "../src/serve-http.js";
import { CLI, FIXTURES, zarrOk } from "./helpers.js";

const SOURCE = path.join(FIXTURES, "v3", "data.zarr");

describe("parseRange", () => {
  it("reads the three single-range forms", () => {
    expect(parseRange("bytes=10-19")).toEqual({ kind: "range", range: { offset: 10, length: 10 } });
    expect(parseRange("bytes=0-0")).toEqual({ kind: "range", range: { offset: 0, length: 1 } });
    expect(parseRange("bytes=5-")).toEqual({ kind: "range", range: { offset: 5 } });
    expect(parseRange("bytes=-4")).toEqual({ kind: "range", range: { suffixLength: 4 } });
  });
  it("serves the whole value for no header, several ranges or another unit, and refuses broken ranges", () => {
    expect(parseRange(undefined)).toEqual({ kind: "whole" });
    expect(parseRange("bytes=0-1,4-5")).toEqual({ kind: "whole" });
    expect(parseRange("items=0-1")).toEqual({ kind: "whole" });
    expect(parseRange("bytes=9-3")).toEqual({ kind: "invalid" });
    expect(parseRange("bytes=-0")).toEqual({ kind: "invalid" });
    expect(parseRange("bytes=-")).toEqual({ kind: "invalid" });
    expect(parseRange("bytes=a-b")).toEqual({ kind: "invalid" });
  });
});

describe("keyOfPath", () => {
  it("maps a request path to a key and refuses anything that is not one", () => {
    expect(keyOfPath("/a/zarr.json")).toBe("a/zarr.json");
    expect(keyOfPath("/a%2Fb/c")).toBe("a/b/c");
    for (const bad of ["/", "/a/", "/../x", "/a/%2e%2e/x", "/a//b", "/a/./b", "/a%00b", "/a%5Cb", "/%E0%A4%A"]) expect(keyOfPath(bad), bad).toBeUndefined();
    // Paths that look absolute, encoded escapes and backslashes name no key: never a key with the slashes dropped.
    for (const bad of ["//tmp/x", "///etc/passwd", "/%2Ftmp/x", "/%2f%2ftmp", "/..%2fx", "/a/..%2F..%2Fb", "/%2e%2e%2fx", "/a\\b", "/\\tmp", "x/zarr.json", "http://h/zarr.json", ""]) {
      expect(keyOfPath(bad), bad).toBeUndefined();
    }
  });
});

describe("zarr serve", () => {
  let child: ChildProcess;
  let base: string;
  let log = "";

  beforeAll(async () => {
    child = spawn(process.execPath, [CLI, "serve", SOURCE, "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] });
    child.stderr?.on("data", (d) => {
      log += d;
    });
    let out = "";
    for await (const d of child.stdout as AsyncIterable<Buffer>) {
      out += d;
      const m = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      if (m !== null) {
        base = m[1];
        break;
      }
    }
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });

  afterAll(async () => {
    if (child.exitCode === null) {
      child.kill("SIGTERM");
      await once(child, "exit");
    }
  });

  /** A raw request (no URL normalisation, any method and headers). */
  function request(method: string, rawPath: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
    const url = new URL(base);
    return new Promise((resolve, reject) => {
      const req = http.request({ host: url.hostname, port: url.port, method, path: rawPath, headers }, (res) => {
        const parts: Buffer[] = [];
        res.on("data", (d: Buffer) => parts.push(d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
      });
      req.on("error", reject);
      req.end();
    });
  }

  it("serves metadata and whole chunks with CORS headers", async () => {
    const r = await request("GET", "/zarr.json");
    expect(r.status).toBe(200);
    expect(r.headers["content-type"]).toBe("application/json");
    expect(r.headers["access-control-allow-origin"]).toBe("*");
    expect(r.headers["accept-ranges"]).toBe("bytes");
    expect(JSON.parse(r.body.toString()).node_type).toBe("group");
  });

  it("serves byte ranges with 206 and Content-Range, clamps open ends, and answers 416 past the end", async () => {
    const whole = (await request("GET", "/zarr.json")).body;
    const size = whole.length;
    const mid = await request("GET", "/zarr.json", { Range: "bytes=2-9" });
    expect(mid.status).toBe(206);
    expect(mid.headers["content-range"]).toBe(`bytes 2-9/${size}`);
    expect(mid.body.equals(whole.subarray(2, 10))).toBe(true);
    const tail = await request("GET", "/zarr.json", { Range: "bytes=-5" });
    expect(tail.headers["content-range"]).toBe(`bytes ${size - 5}-${size - 1}/${size}`);
    expect(tail.body.equals(whole.subarray(size - 5))).toBe(true);
    const over = await request("GET", "/zarr.json", { Range: `bytes=${size - 3}-${size + 100}` });
    expect(over.status).toBe(206);
    expect(over.body.equals(whole.subarray(size - 3))).toBe(true);
    const last = await request("GET", "/zarr.json", { Range: `bytes=${size - 1}-` });
    expect(last.body.equals(whole.subarray(size - 1))).toBe(true);
    const past = await request("GET", "/zarr.json", { Range: `bytes=${size}-` });
    expect(past.status).toBe(416);
    expect(past.headers["content-range"]).toBe(`bytes */${size}`);
    const head = await request("HEAD", "/zarr.json");
    expect(head.status).toBe(200);
    expect(Number(head.headers["content-length"])).toBe(size);
    expect(head.body.length).toBe(0);
  });

  it("answers a CORS preflight for Range, and 404, 400 and 405 where it should", async () => {
    const pre = await request("OPTIONS", "/zarr.json", { Origin: "http://localhost:5173", "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "range" });
    expect(pre.status).toBe(204);
    expect(pre.headers["access-control-allow-headers"]).toBe("range");
    expect(pre.headers["access-control-allow-methods"]).toContain("GET");
    expect((await request("GET", "/no/such/key")).status).toBe(404);
    expect((await request("GET", "/../../etc/passwd")).status).toBe(400);
    expect((await request("GET", "/%2e%2e/%2e%2e/etc/passwd")).status).toBe(400);
    // A path that looks absolute is outside the store (the README promises 400), not a key with
    // its slashes dropped: "//zarr.json" was served as zarr.json, "//tmp/x" answered 404.
    for (const outside of ["//tmp/zarr.json", "//zarr.json", "///zarr.json", "/%2Fzarr.json", "/..%2fzarr.json", "/a/..%2F..%2Fzarr.json", "/\\zarr.json", "/%5Czarr.json"]) {
      for (const method of ["GET", "HEAD"]) expect((await request(method, outside)).status, `${method} ${outside}`).toBe(400);
    }
    expect((await request("GET", "/zarr.json")).status).toBe(200);
    expect((await request("PUT", "/zarr.json")).status).toBe(405);
    expect(log).toMatch(/GET \/zarr\.json 200 \d+/);
  });

  it("is read by zarr get over HTTP, equal to the local read", async () => {
    const local = await zarrOk(["get", SOURCE, "2d.chunked.i2", "--format", "json"]);
    const remote = await zarrOk(["get", base, "2d.chunked.i2", "--format", "json"]);
    expect(remote.stdout.toString()).toBe(local.stdout.toString());
  });

  it("is described by zarr info over HTTP, which cannot list: stored size unknown", async () => {
    const text = (await zarrOk(["info", base, "2d.chunked.i2"])).stdout.toString();
    expect(text).toMatch(/^shape: +\[2, 2\]$/m);
    expect(text).toMatch(/^stored: +unknown \(the store cannot list keys; --stored asks for each chunk key\)$/m);
    expect(text).toMatch(/^chunks: +\? of 4 stored$/m);
    const json = JSON.parse((await zarrOk(["info", base, "2d.chunked.i2", "--json"])).stdout.toString());
    expect(json.stored_bytes).toBeNull();
    expect(json.chunks_stored).toBeNull();
  });

  it("counts stored chunks over HTTP with --stored, as a local listing does, one request per key", async () => {
    // One array with every chunk, one with a chunk never written (a missing key is a 404).
    for (const name of ["2d.chunked.i2", "1d.chunked.filled.compressed.sharded.i2"]) {
      const local = JSON.parse((await zarrOk(["info", SOURCE, name, "--json"])).stdout.toString());
      const before = log.length;
      const remote = JSON.parse((await zarrOk(["info", base, name, "--json", "--stored"])).stdout.toString());
      for (const field of ["stored_bytes", "stored_keys", "chunks_stored", "chunks_total"]) expect(remote[field], `${name} ${field}`).toBe(local[field]);
      expect(local.stored_counted_by).toBeUndefined();
      expect(remote.stored_counted_by).toBe("probing each chunk key");
      // Each chunk key once, plus zarr.json (asked once more for its size).
      const probes = log.slice(before).match(/^HEAD \S+/gm) ?? [];
      expect(probes.length, probes.join(", ")).toBe(local.chunks_total + 1);
      expect(new Set(probes).size).toBe(probes.length);
    }
    expect((await zarrOk(["info", base, "1d.chunked.filled.compressed.sharded.i2", "--stored"])).stdout.toString()).toMatch(
      /^stored: +\S.* in 2 keys \(counted by probing each chunk key\)$/m,
    );
  });

  it("is read by zarrita.js (FetchStore)", async () => {
    const zarrita = await import("zarrita");
    const arr = await zarrita.open(zarrita.root(new zarrita.FetchStore(base)).resolve("2d.chunked.i2"), { kind: "array" });
    const got = await zarrita.get(arr);
    const local = JSON.parse((await zarrOk(["get", SOURCE, "2d.chunked.i2", "--format", "json"])).stdout.toString());
    expect(got.shape).toEqual(local.shape);
    expect(Array.from(got.data as Int16Array)).toEqual(local.values.map(Number));
  });

  it("stops cleanly on SIGTERM", async () => {
    child.kill("SIGTERM");
    const [code] = await once(child, "exit");
    expect(code).toBe(0);
  });
});
