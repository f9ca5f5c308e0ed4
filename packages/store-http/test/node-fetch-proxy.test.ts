// nodeFetch's redirect header hygiene, its fetch-like signature, and proxies: two origins
// (servers on different ports), an HTTPS origin with its own CA, and a small HTTP proxy
// (absolute-URI forwarding and CONNECT tunnels) that records what passed through it.
import { execFileSync } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import net, { type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpStore } from "../src/index.js";
import { bypassesProxy } from "../src/node/proxy.js";
import { createNodeFetch, nodeFetch, proxyFromEnv } from "../src/node-fetch.js";

const seen: { origin: string; url: string; headers: http.IncomingHttpHeaders }[] = [];
const proxied: { method: string; target: string; auth?: string }[] = [];
const servers: (http.Server | https.Server)[] = [];
let a: string;
let b: string;
let secureOrigin: string;
let proxyUrl: string;
let certDir: string;
let ca: Buffer;

async function listen<S extends http.Server | https.Server>(s: S): Promise<string> {
  servers.push(s);
  s.listen(0, "127.0.0.1");
  await once(s, "listening");
  return `127.0.0.1:${(s.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  b = `http://${await listen(
    http.createServer((req, res) => {
      seen.push({ origin: "b", url: req.url ?? "", headers: req.headers });
      res.end("from b");
    }),
  )}`;
  a = `http://${await listen(
    http.createServer((req, res) => {
      seen.push({ origin: "a", url: req.url ?? "", headers: req.headers });
      if (req.url === "/to-b") return res.writeHead(302, { location: `${b}/there` }).end();
      if (req.url === "/to-a") return res.writeHead(307, { location: "/here" }).end();
      res.end("from a");
    }),
  )}`;
  certDir = mkdtempSync(join(tmpdir(), "zarr-proxy-"));
  const key = join(certDir, "key.pem");
  const cert = join(certDir, "cert.pem");
  execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"], { stdio: "ignore" });
  ca = readFileSync(cert);
  secureOrigin = `https://${await listen(https.createServer({ key: readFileSync(key), cert: ca }, (req, res) => res.end(`secure ${req.url}`)))}`;
  // The proxy: absolute-URI requests forwarded with node:http, CONNECT tunnels with node:net.
  const proxy = http.createServer((req, res) => {
    proxied.push({ method: req.method ?? "", target: req.url ?? "", auth: req.headers["proxy-authorization"] });
    const headers = { ...req.headers };
    delete headers["proxy-authorization"];
    const upstream = http.request(req.url ?? "", { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  proxy.on("connect", (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    proxied.push({ method: "CONNECT", target: req.url ?? "", auth: req.headers["proxy-authorization"] });
    if (req.url?.startsWith("refused.")) {
      client.end("HTTP/1.1 403 Forbidden\r\n\r\n");
      return;
    }
    const [host, port] = (req.url ?? "").split(":");
    const upstream = net.connect(Number(port), host === "localhost" ? "127.0.0.1" : host, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
  });
  proxyUrl = `http://${await listen(proxy)}`;
});

afterAll(() => {
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
  rmSync(certDir, { recursive: true, force: true });
});

describe("nodeFetch redirects", () => {
  const secrets = {
    cookie: "session=s3cret",
    authorization: "Bearer s3cret",
    "proxy-authorization": "Basic s3cret",
    "x-api-key": "s3cret",
    range: "bytes=0-3",
    accept: "application/octet-stream",
  };

  it("drops Cookie, Authorization, Proxy-Authorization and custom key headers on a redirect to another origin", async () => {
    seen.length = 0;
    const r = await nodeFetch(`${a}/to-b`, { headers: secrets });
    expect(await r.text()).toBe("from b");
    expect(seen.map((s) => s.origin)).toEqual(["a", "b"]);
    const atB = seen[1].headers;
    for (const name of ["cookie", "authorization", "proxy-authorization", "x-api-key"]) expect(atB[name], name).toBeUndefined();
    // What carries no secret goes on.
    expect(atB.range).toBe("bytes=0-3");
    expect(atB.accept).toBe("application/octet-stream");
    expect(JSON.stringify(atB)).not.toContain("s3cret");
  });

  it("keeps every header on a redirect within the origin", async () => {
    seen.length = 0;
    await (await nodeFetch(`${a}/to-a`, { headers: secrets })).text();
    expect(seen.map((s) => [s.origin, s.url])).toEqual([
      ["a", "/to-a"],
      ["a", "/here"],
    ]);
    for (const [name, value] of Object.entries(secrets)) expect(seen[1].headers[name], name).toBe(value);
  });

  it("works with no second argument, and with a URL object, as fetch does", async () => {
    expect(await (await nodeFetch(`${a}/plain`)).text()).toBe("from a");
    expect(await (await createNodeFetch()(new URL(`${b}/x`))).text()).toBe("from b");
  });
});

describe("nodeFetch proxies", () => {
  it("sends http: requests to the proxy in absolute form, with the proxy URL's credentials", async () => {
    proxied.length = 0;
    const fetch = createNodeFetch({ proxy: { http: proxyUrl.replace("http://", "http://user:p%40ss@") } });
    expect(await (await fetch(`${a}/via`)).text()).toBe("from a");
    expect(proxied).toEqual([{ method: "GET", target: `${a}/via`, auth: `Basic ${Buffer.from("user:p@ss").toString("base64")}` }]);
    // The store's reads go the same way (ranges into the caller's buffer included).
    const store = new HttpStore(`${a}/`, { fetch });
    expect(new TextDecoder().decode(await store.get("k"))).toBe("from a");
    expect(proxied.length).toBeGreaterThan(1);
  });

  it("tunnels https: requests with CONNECT, TLS to the target inside", async () => {
    proxied.length = 0;
    const fetch = createNodeFetch({ proxy: { https: proxyUrl }, tls: { ca } });
    const port = new URL(secureOrigin).port;
    expect(await (await fetch(`https://localhost:${port}/t`)).text()).toBe("secure /t");
    expect(await (await fetch(`https://localhost:${port}/again`)).text()).toBe("secure /again");
    expect(proxied).toEqual([{ method: "CONNECT", target: `localhost:${port}`, auth: undefined }]); // one tunnel, kept alive
  });

  it("fails with TypeError('fetch failed') when the proxy refuses the tunnel, naming the proxy without credentials", async () => {
    const fetch = createNodeFetch({ proxy: { https: proxyUrl.replace("http://", "http://user:topsecret@") } });
    const error = await fetch("https://refused.invalid/x").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    const cause = (error as Error).cause as Error;
    expect(cause.message).toContain("answered 403 to CONNECT refused.invalid:443");
    expect(cause.message).not.toContain("topsecret");
  });

  it("reads HTTPS_PROXY, HTTP_PROXY and NO_PROXY from the environment (proxy: 'env')", async () => {
    const saved = { ...process.env };
    try {
      for (const k of ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "no_proxy", "NO_PROXY"]) delete process.env[k];
      process.env.HTTP_PROXY = proxyUrl;
      process.env.NO_PROXY = "localhost";
      proxied.length = 0;
      const fetch = createNodeFetch({ proxy: "env" });
      expect(await (await fetch(`${a}/proxied`)).text()).toBe("from a");
      const direct = a.replace("127.0.0.1", "localhost");
      expect(await (await fetch(`${direct}/direct`)).text()).toBe("from a");
      expect(proxied.map((p) => p.target)).toEqual([`${a}/proxied`]);
    } finally {
      process.env = saved;
    }
  });

  it("parses the environment, lower case first, and NO_PROXY lists", () => {
    expect(proxyFromEnv({ HTTPS_PROXY: "http://upper:1", https_proxy: "http://lower:1", NO_PROXY: " " })).toEqual({ http: undefined, https: "http://lower:1", noProxy: undefined });
    expect(proxyFromEnv({ http_proxy: "", HTTP_PROXY: "http://upper:2", no_proxy: "", NO_PROXY: "h" })).toEqual({ http: "http://upper:2", https: undefined, noProxy: "h" });
    expect(proxyFromEnv({ ALL_PROXY: "socks5h://s:1080", HTTP_PROXY: "http://h:3" })).toEqual({ http: "http://h:3", https: "socks5h://s:1080", noProxy: undefined });
    expect(proxyFromEnv({ all_proxy: "socks5://lower:1", ALL_PROXY: "socks5://upper:1" })).toEqual({ http: "socks5://lower:1", https: "socks5://lower:1", noProxy: undefined });
    const u = (s: string) => new URL(s);
    expect(bypassesProxy(u("http://a.example.com/"), "example.com")).toBe(true);
    expect(bypassesProxy(u("http://example.com/"), ".example.com")).toBe(true);
    expect(bypassesProxy(u("http://notexample.com/"), "example.com")).toBe(false);
    expect(bypassesProxy(u("http://h:8080/"), "h:8080")).toBe(true);
    expect(bypassesProxy(u("http://h:8081/"), "h:8080")).toBe(false);
    expect(bypassesProxy(u("https://h/"), "h:443")).toBe(true);
    expect(bypassesProxy(u("http://[::1]:80/"), "::1")).toBe(true);
    expect(bypassesProxy(u("http://10.0.0.1/"), "localhost, 10.0.0.1")).toBe(true);
    expect(bypassesProxy(u("http://anything/"), "*")).toBe(true);
    expect(bypassesProxy(u("http://anything/"), undefined)).toBe(false);
  });
});
