/**
 * HTTP/2 in nodeFetch (`createNodeFetch({ http2: true })`): real `node:http2` and
 * `node:https` servers on 127.0.0.1 with a throw-away certificate, read through the
 * fetch function and through HttpStore (whole values, ranges, the read-into path).
 */
import { execFileSync } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http2 from "node:http2";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpStore } from "../src/index.js";
import { createNodeFetch } from "../src/node-fetch.js";

const dir = mkdtempSync(join(tmpdir(), "zarr-h2-"));
const keyFile = join(dir, "key.pem");
const certFile = join(dir, "cert.pem");
execFileSync(
  "openssl",
  ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", keyFile, "-out", certFile, "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
  { stdio: "ignore" },
);
const key = readFileSync(keyFile);
const cert = readFileSync(certFile);

/** 4 MiB of a pattern, so a misplaced byte shows. */
const big = new Uint8Array(4 << 20).map((_, i) => (i * 7 + (i >> 11)) & 0xff);

/** What the servers saw: HTTP version, method and path of each request. */
const seen: string[] = [];

/** Serves `/big` (with single ranges), `/text`, `/gz` (gzip-coded), `/slow` (never ends), `/moved` (302 to /text); anything else 404. */
function handle(req: http2.Http2ServerRequest | import("node:http").IncomingMessage, res: http2.Http2ServerResponse | import("node:http").ServerResponse): void {
  seen.push(`${req.httpVersion} ${req.method} ${req.url}`);
  const r = res as import("node:http").ServerResponse;
  switch (req.url) {
    case "/big": {
      const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? "");
      if (m === null) return void r.writeHead(200, { "content-length": big.length }).end(big);
      const [start, end] = [Number(m[1]), Math.min(Number(m[2]), big.length - 1)];
      return void r.writeHead(206, { "content-range": `bytes ${start}-${end}/${big.length}`, "content-length": end - start + 1 }).end(big.subarray(start, end + 1));
    }
    case "/text":
      return void r.writeHead(200, { "content-type": "text/plain", "x-answer": "42" }).end(`hello over ${req.httpVersion}`);
    case "/gz":
      return void r.writeHead(200, { "content-encoding": "gzip" }).end(gzipSync(Buffer.from("decoded text")));
    case "/slow":
      r.writeHead(200);
      return void r.write("partial");
    case "/moved":
      return void r.writeHead(302, { location: "/text" }).end();
  }
  r.writeHead(404).end();
}

let h2Server: http2.Http2SecureServer;
let h1Server: https.Server;
let h2Base: string;
let h1Base: string;
let sessions = 0;

beforeAll(async () => {
  h2Server = http2.createSecureServer({ key, cert, allowHTTP1: false }, handle);
  h2Server.on("session", () => sessions++);
  h1Server = https.createServer({ key, cert }, handle); // ALPN: HTTP/1.1 only
  h2Server.listen(0, "127.0.0.1");
  h1Server.listen(0, "127.0.0.1");
  await Promise.all([once(h2Server, "listening"), once(h1Server, "listening")]);
  h2Base = `https://localhost:${(h2Server.address() as AddressInfo).port}`;
  h1Base = `https://127.0.0.1:${(h1Server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  h1Server.closeAllConnections();
  h1Server.close();
  h2Server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("nodeFetch with http2", () => {
  it("speaks HTTP/2 to a server that offers it, all requests on one session", async () => {
    const fetch = createNodeFetch({ http2: true, tls: { ca: cert } });
    const before = sessions;
    seen.length = 0;
    const responses = await Promise.all(Array.from({ length: 8 }, () => fetch(`${h2Base}/text`)));
    for (const r of responses) {
      expect(r.status).toBe(200);
      expect(r.headers.get("x-answer")).toBe("42");
      const names: string[] = [];
      r.headers.forEach((_, name) => {
        names.push(name);
      });
      expect(names.filter((k) => k.startsWith(":"))).toEqual([]);
      expect(await r.text()).toBe("hello over 2.0");
    }
    expect(seen.every((s) => s.startsWith("2.0 GET"))).toBe(true);
    expect(sessions - before).toBe(1);
    expect((await fetch(`${h2Base}/none`)).status).toBe(404);
    const head = await fetch(`${h2Base}/big`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(big.length));
    expect(head.body).toBeNull();
  });

  it("decodes content codings and follows redirects over HTTP/2", async () => {
    const fetch = createNodeFetch({ http2: true, tls: { ca: cert } });
    expect(await (await fetch(`${h2Base}/gz`)).text()).toBe("decoded text");
    const moved = await fetch(`${h2Base}/moved`);
    expect(moved.status).toBe(200);
    expect(await moved.text()).toBe("hello over 2.0");
  });

  it("serves HttpStore: whole values, ranges and the read-into path, byte for byte", async () => {
    const store = new HttpStore(`${h2Base}/`, { fetch: createNodeFetch({ http2: true, tls: { ca: cert } }) });
    seen.length = 0;
    expect(Buffer.compare((await store.get("big")) as Uint8Array, big)).toBe(0);
    expect(Buffer.compare((await store.getRange("big", { offset: 1_000_000, length: 70_000 })) as Uint8Array, big.subarray(1_000_000, 1_070_000))).toBe(0);
    const a = new Uint8Array(5000);
    const b = new Uint8Array(3);
    expect(await store.readInto("big", [{ offset: 123_456, target: a }, { offset: 3_000_000, target: b }])).toBe(big.length);
    expect(Buffer.compare(a, big.subarray(123_456, 128_456))).toBe(0);
    expect(Buffer.compare(b, big.subarray(3_000_000, 3_000_003))).toBe(0);
    expect(await store.get("missing")).toBeUndefined();
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((s) => s.startsWith("2.0 "))).toBe(true);
  });

  it("rejects with the signal's reason when aborted while the body is read", async () => {
    const fetch = createNodeFetch({ http2: true, tls: { ca: cert } });
    const controller = new AbortController();
    const response = await fetch(`${h2Base}/slow`, { signal: controller.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("partial");
    const next = reader.read();
    controller.abort(new Error("stop"));
    await expect(next).rejects.toThrow("stop");
    // The session survives a cancelled stream.
    expect(await (await fetch(`${h2Base}/text`)).text()).toBe("hello over 2.0");
  });

  it("falls back to HTTP/1.1 for a server that answers ALPN with http/1.1, and stays there", async () => {
    const fetch = createNodeFetch({ http2: true, tls: { ca: cert } });
    seen.length = 0;
    expect(await (await fetch(`${h1Base}/text`)).text()).toBe("hello over 1.1");
    expect(await (await fetch(`${h1Base}/text`)).text()).toBe("hello over 1.1");
    const store = new HttpStore(`${h1Base}/`, { fetch });
    expect(Buffer.compare((await store.get("big")) as Uint8Array, big)).toBe(0);
    expect(seen.every((s) => s.startsWith("1.1 "))).toBe(true);
  });

  it("is off by default: without http2 the same server is refused (it allows no HTTP/1.1)", async () => {
    await expect(createNodeFetch({ tls: { ca: cert } })(`${h2Base}/text`)).rejects.toBeInstanceOf(TypeError);
  });

  it("checks certificates over HTTP/2 too", async () => {
    await expect(createNodeFetch({ http2: true })(`${h2Base}/text`)).rejects.toBeInstanceOf(TypeError);
  });
});
