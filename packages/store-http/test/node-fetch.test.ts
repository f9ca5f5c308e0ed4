import { execFile, execFileSync } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BODY_INTO, pipeBody } from "../src/body-into.js";
import { HttpStore } from "../src/index.js";
import { createNodeFetch, nodeFetch } from "../src/node-fetch.js";

// A server with what the shared test server lacks: redirects, compressed bodies, a body
// that stalls, and a record of the headers each request carried.
const seen: { url: string; method: string; authorization?: string }[] = [];
const big = new Uint8Array(3 << 20).map((_, i) => (i * 31) & 0xff);
let server: http.Server;
let other: http.Server;
let base: string;
let otherBase: string;
/** Connections the main server has accepted. */
let connections = 0;

function listen(handler: http.RequestListener): Promise<[http.Server, string]> {
  const s = http.createServer(handler);
  s.listen(0, "127.0.0.1");
  return once(s, "listening").then(() => [s, `http://127.0.0.1:${(s.address() as AddressInfo).port}`]);
}

beforeAll(async () => {
  [other, otherBase] = await listen((req, res) => {
    seen.push({ url: `other${req.url}`, method: req.method ?? "", authorization: req.headers.authorization });
    res.end("elsewhere");
  });
  [server, base] = await listen((req, res) => {
    if (req.url === "/slow-head") {
      setTimeout(() => res.end("late"), 300);
      return;
    }
    if (req.url === "/small-error") return res.writeHead(500).end("x".repeat(1000));
    seen.push({ url: req.url ?? "", method: req.method ?? "", authorization: req.headers.authorization });
    const url = req.url ?? "";
    if (url === "/redirect") return res.writeHead(302, { location: "/big" }).end("moved");
    if (url === "/see-other") return res.writeHead(303, { location: "/plain" }).end();
    if (url === "/loop") return res.writeHead(307, { location: "/loop" }).end();
    if (url === "/away") return res.writeHead(307, { location: `${otherBase}/there` }).end();
    if (url === "/gzip") return res.writeHead(200, { "content-encoding": "gzip" }).end(gzipSync(big));
    if (url === "/stall") {
      res.writeHead(200, { "content-length": String(big.length) });
      res.write(big.subarray(0, 1000)); // and never the rest
      return;
    }
    if (url === "/cut") {
      res.writeHead(200, { "content-length": String(big.length) });
      res.write(big.subarray(0, 5000), () => res.socket?.destroy());
      return;
    }
    if (url === "/nothing") return res.writeHead(204).end();
    if (url === "/echo") {
      const parts: Buffer[] = [];
      req.on("data", (d: Buffer) => parts.push(d));
      req.on("end", () => res.end(Buffer.concat(parts)));
      return;
    }
    if (url === "/big") return res.writeHead(200, { "content-length": String(big.length) }).end(req.method === "HEAD" ? undefined : big);
    res.end("plain");
  });
});
beforeAll(() => {
  server.on("connection", () => connections++);
});
afterAll(() => {
  server.closeAllConnections();
  other.closeAllConnections();
  server.close();
  other.close();
});

const bytes = async (r: Response) => new Uint8Array(await r.arrayBuffer());

describe("nodeFetch", () => {
  it("reads bodies, follows redirects and turns 303 into GET", async () => {
    const r = await nodeFetch(`${base}/redirect`, {});
    expect(r.status).toBe(200);
    expect(Buffer.compare(await bytes(r), big)).toBe(0);
    seen.length = 0;
    const posted = await nodeFetch(`${base}/see-other`, { method: "PUT", body: new Uint8Array([1]) });
    expect(await posted.text()).toBe("plain");
    expect(seen.map((s) => s.method)).toEqual(["PUT", "GET"]);
  });

  it("gives up after too many redirects, and drops Authorization when a redirect leaves the origin", async () => {
    await expect(createNodeFetch({ maxRedirects: 3 })(`${base}/loop`, {})).rejects.toThrow(/too many redirects/);
    seen.length = 0;
    const r = await nodeFetch(`${base}/away`, { headers: { authorization: "Bearer secret" } });
    expect(await r.text()).toBe("elsewhere");
    expect(seen.map((s) => [s.url, s.authorization])).toEqual([
      ["/away", "Bearer secret"],
      ["other/there", undefined],
    ]);
  });

  it("decodes gzip bodies and keeps the Content-Encoding header, as fetch does", async () => {
    const r = await nodeFetch(`${base}/gzip`, {});
    expect(r.headers.get("content-encoding")).toBe("gzip");
    expect(Buffer.compare(await bytes(r), big)).toBe(0);
  });

  it("sends request bodies and answers 204 and HEAD without a body", async () => {
    const echoed = await nodeFetch(`${base}/echo`, { method: "PUT", body: new Uint8Array([7, 8, 9]) });
    expect(Array.from(await bytes(echoed))).toEqual([7, 8, 9]);
    expect((await nodeFetch(`${base}/nothing`, {})).body).toBeNull();
    const head = await nodeFetch(`${base}/big`, { method: "HEAD" });
    expect(head.body).toBeNull();
    expect(head.headers.get("content-length")).toBe(String(big.length));
  });

  it("rejects with the abort reason when aborted mid-body, and with TypeError on network errors", async () => {
    const controller = new AbortController();
    const r = await nodeFetch(`${base}/stall`, { signal: controller.signal });
    const reading = r.arrayBuffer();
    setTimeout(() => controller.abort(new Error("stop")), 50);
    await expect(reading).rejects.toThrow("stop");
    await expect(nodeFetch("http://127.0.0.1:1/x", {})).rejects.toBeInstanceOf(TypeError);
    const cut = await nodeFetch(`${base}/cut`, {});
    await expect(cut.arrayBuffer()).rejects.toThrow(/cut off/);
  });

  it("HttpStore retries a cut-off body through it and fails with STORE_FAILED, never short data", async () => {
    const store = new HttpStore(base, { fetch: nodeFetch, retries: 1, retryDelay: 1 });
    await expect(store.get("cut")).rejects.toMatchObject({ code: "STORE_FAILED" });
    expect(Buffer.compare((await store.get("big")) as Uint8Array, big)).toBe(0);
  });

  it("idle keep-alive connections do not keep a process alive", async () => {
    // The built module (tests run after the package's build): Node 20 cannot run .ts.
    const script = `
      import { nodeFetch } from ${JSON.stringify(join(import.meta.dirname, "../dist/node-fetch.js"))};
      const r = await nodeFetch(${JSON.stringify(`${base}/plain`)}, {});
      console.log(await r.text());`;
    const started = Date.now();
    // Asynchronously: the child talks to the server in this process.
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], { timeout: 20_000 });
    expect(stdout.trim()).toBe("plain");
    expect(Date.now() - started).toBeLessThan(4000); // a kept-alive socket would hold it ~5 s+
  });
});

describe("nodeFetch's connections", () => {
  it("hands bodies straight to a sink (BODY_INTO) and reuses the connection afterwards", async () => {
    const fetch = createNodeFetch();
    const before = connections;
    for (let i = 0; i < 3; i++) {
      const r = await fetch(`${base}/big`, {});
      expect(BODY_INTO in r).toBe(true);
      const got = new Uint8Array(big.length);
      let at = 0;
      await pipeBody(r, (piece) => {
        got.set(piece, at);
        at += piece.length;
      });
      expect(at).toBe(big.length);
      expect(Buffer.compare(got, big)).toBe(0);
    }
    expect(connections - before).toBe(1);
    // A body taken through the direct path cannot be read a second time through the stream.
    const r = await fetch(`${base}/plain`, {});
    await pipeBody(r, () => {});
    await expect(r.text()).rejects.toThrow(/already been read/);
  });

  it("reads a short unread body to its end on cancel, so the connection stays", async () => {
    const fetch = createNodeFetch({ maxSockets: 1 });
    const before = connections;
    for (let i = 0; i < 3; i++) {
      const r = await fetch(`${base}/small-error`, {});
      expect(r.status).toBe(500);
      await r.body?.cancel();
    }
    expect(await (await fetch(`${base}/plain`, {})).text()).toBe("plain");
    expect(connections - before).toBe(1);
  });

  it("replaces a keep-alive connection the server closed while it was idle", async () => {
    const [closing, closingBase] = await listen((_req, res) => res.end("fresh"));
    closing.keepAliveTimeout = 20;
    try {
      const fetch = createNodeFetch();
      expect(await (await fetch(`${closingBase}/a`, {})).text()).toBe("fresh");
      await new Promise((r) => setTimeout(r, 100)); // the server has closed the idle connection
      expect(await (await fetch(`${closingBase}/b`, {})).text()).toBe("fresh");
    } finally {
      closing.closeAllConnections();
      closing.close();
    }
  });

  it("sends a request once more on a new connection when a reused one closes without answering", async () => {
    const net = await import("node:net");
    let accepted = 0;
    // Answers the first request on each connection; closes at the second (a keep-alive race).
    const flaky = net.createServer((socket: Socket) => {
      accepted++;
      let requests = 0;
      socket.on("data", () => {
        if (++requests === 1) socket.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
        else socket.destroy();
      });
    });
    flaky.listen(0, "127.0.0.1");
    await once(flaky, "listening");
    try {
      const url = `http://127.0.0.1:${(flaky.address() as AddressInfo).port}/`;
      const fetch = createNodeFetch();
      expect(await (await fetch(url, {})).text()).toBe("ok");
      expect(await (await fetch(url, {})).text()).toBe("ok");
      expect(accepted).toBe(2);
    } finally {
      flaky.close();
    }
  });

  it("queues requests beyond maxSockets, and an abort takes a queued request out of the line", async () => {
    const fetch = createNodeFetch({ maxSockets: 2 });
    const before = connections;
    const slow = [fetch(`${base}/slow-head`, {}), fetch(`${base}/slow-head`, {})];
    const controller = new AbortController();
    const queued = fetch(`${base}/plain`, { signal: controller.signal });
    const waiting = fetch(`${base}/plain`, {});
    controller.abort(new Error("not any more"));
    await expect(queued).rejects.toThrow("not any more");
    const texts = await Promise.all([...slow, waiting].map(async (p) => (await p).text()));
    expect(texts).toEqual(["late", "late", "plain"]);
    expect(connections - before).toBe(2);
  });

  it("speaks TLS, checking certificates (a custom CA through the tls option)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "zarr-tls-"));
    const key = join(dir, "key.pem");
    const cert = join(dir, "cert.pem");
    execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"], { stdio: "ignore" });
    const secure = https.createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
      if (req.url === "/big") return res.end(big);
      res.end("secret");
    });
    secure.listen(0, "127.0.0.1");
    await once(secure, "listening");
    const port = (secure.address() as AddressInfo).port;
    try {
      const fetch = createNodeFetch({ tls: { ca: readFileSync(cert) } });
      expect(await (await fetch(`https://localhost:${port}/x`, {})).text()).toBe("secret");
      const store = new HttpStore(`https://127.0.0.1:${port}/`, { fetch });
      expect(Buffer.compare((await store.get("big")) as Uint8Array, big)).toBe(0);
      const target = new Uint8Array(1000);
      expect(await store.readInto("big", [{ offset: 5000, target }])).toBe(big.length);
      expect(Buffer.compare(target, big.subarray(5000, 6000))).toBe(0);
      // Without the CA the certificate is refused.
      await expect(createNodeFetch()(`https://localhost:${port}/x`, {})).rejects.toBeInstanceOf(TypeError);
    } finally {
      secure.closeAllConnections();
      secure.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("fails a response that is not HTTP with a TypeError", async () => {
    const net = await import("node:net");
    const garbage = net.createServer((socket: Socket) => socket.end("SSH-2.0-OpenSSH\r\n\r\n"));
    garbage.listen(0, "127.0.0.1");
    await once(garbage, "listening");
    try {
      const url = `http://127.0.0.1:${(garbage.address() as AddressInfo).port}/`;
      await expect(nodeFetch(url, {})).rejects.toThrow(/not an HTTP\/1.x status line/);
    } finally {
      garbage.close();
    }
  });
});
