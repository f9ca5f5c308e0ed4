/**
 * SOCKS5 proxies in nodeFetch, through a real SOCKS server: Debian's `microsocks`
 * (`apt-get install microsocks`; `.ci/run` installs it). The proxy is told to make its
 * outgoing connections from 127.0.0.2, so the target servers can tell a proxied request
 * (from 127.0.0.2) from a direct one (from 127.0.0.1).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import net, { type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requirePeer, skipWithout } from "../../../scripts/test-env.mjs";
import { HttpStore } from "../src/index.js";
import { socksAddress } from "../src/node/socks.js";
import { createNodeFetch } from "../src/node-fetch.js";

const MICROSOCKS = "/usr/bin/microsocks";
const available = existsSync(MICROSOCKS);
const skip = skipWithout(available, "microsocks (a SOCKS5 server)");

/** Who connected to the target servers. */
const peers: string[] = [];
const children: ChildProcess[] = [];
const servers: net.Server[] = [];
let plain: string;
let secure: string;
let certDir: string;
let ca: Buffer;

async function freePort(): Promise<number> {
  const s = net.createServer().listen(0, "127.0.0.1");
  await once(s, "listening");
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** Starts microsocks on a free port (with `-u`/`-P` when given), resolving once it accepts connections. */
async function startProxy(credentials?: [string, string]): Promise<number> {
  const port = await freePort();
  const args = ["-i", "127.0.0.1", "-p", String(port), "-b", "127.0.0.2", ...(credentials ? ["-u", credentials[0], "-P", credentials[1]] : [])];
  const child = spawn(MICROSOCKS, args, { stdio: "ignore" });
  children.push(child);
  for (let i = 0; i < 100; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      const c = net.connect({ host: "127.0.0.1", port }, () => {
        c.destroy();
        resolve(true);
      });
      c.on("error", () => resolve(false));
    });
    if (ok) return port;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("microsocks did not start");
}

beforeAll(async () => {
  if (skip) return;
  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    peers.push(req.socket.remoteAddress ?? "");
    res.end(`${req.url} via ${req.socket.remoteAddress}`);
  };
  const h = http.createServer(onRequest).listen(0, "127.0.0.1");
  certDir = mkdtempSync(join(tmpdir(), "zarr-socks-"));
  execFileSync(
    "openssl",
    ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", join(certDir, "k.pem"), "-out", join(certDir, "c.pem"), "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
    { stdio: "ignore" },
  );
  ca = readFileSync(join(certDir, "c.pem"));
  const s = https.createServer({ key: readFileSync(join(certDir, "k.pem")), cert: ca }, onRequest).listen(0, "127.0.0.1");
  servers.push(h, s);
  await Promise.all([once(h, "listening"), once(s, "listening")]);
  plain = `http://localhost:${(h.address() as AddressInfo).port}`;
  secure = `https://localhost:${(s.address() as AddressInfo).port}`;
});

afterAll(() => {
  for (const c of children) c.kill();
  for (const s of servers) {
    (s as http.Server).closeAllConnections?.();
    s.close();
  }
  if (certDir) rmSync(certDir, { recursive: true, force: true });
});

describe("SOCKS5 proxies", () => {
  it("tunnels http: and https: requests through socks5h:// (names resolved by the proxy)", async () => {
    requirePeer(available, "microsocks");
    const port = await startProxy();
    const fetch = createNodeFetch({ proxy: { http: `socks5h://127.0.0.1:${port}`, https: `socks5h://127.0.0.1:${port}` }, tls: { ca } });
    expect(await (await fetch(`${plain}/a`)).text()).toBe("/a via 127.0.0.2");
    expect(await (await fetch(`${secure}/b`)).text()).toBe("/b via 127.0.0.2");
    // HttpStore on top, ranges included; the connection is kept alive through the tunnel.
    const store = new HttpStore(`${secure}/`, { fetch });
    expect(new TextDecoder().decode(await store.getRange("k", { offset: 0, length: 2 }))).toBe("/k");
    // NO_PROXY still bypasses it.
    const direct = createNodeFetch({ proxy: { http: `socks5h://127.0.0.1:${port}`, noProxy: "localhost" } });
    expect(await (await direct(`${plain}/c`)).text()).toBe("/c via 127.0.0.1");
  });

  it("resolves names locally with socks5:// and authenticates with the URL's username and password", async () => {
    requirePeer(available, "microsocks");
    const port = await startProxy(["alice", "s3cret"]);
    const fetch = createNodeFetch({ proxy: { http: `socks5://alice:s3cret@127.0.0.1:${port}` } });
    expect(await (await fetch(`${plain}/d`)).text()).toBe("/d via 127.0.0.2");
    const wrong = createNodeFetch({ proxy: { http: `socks5://alice:wrong-pass@127.0.0.1:${port}` } });
    const error = await wrong(`${plain}/e`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(((error as Error).cause as Error).message).toContain("refused the username and password");
    expect(String(((error as Error).cause as Error).message)).not.toContain("wrong-pass");
    const none = createNodeFetch({ proxy: { http: `socks5://127.0.0.1:${port}` } });
    expect((((await none(`${plain}/f`).catch((e: unknown) => e)) as Error).cause as Error).message).toContain("accepts none of the authentication methods");
  });

  it("fails with TypeError('fetch failed') naming the proxy when it cannot be reached", async () => {
    requirePeer(available, "microsocks");
    const port = await freePort();
    const error = await createNodeFetch({ proxy: { http: `socks5h://u:topsecret@127.0.0.1:${port}` } })(`${plain}/g`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    const cause = (error as Error).cause as Error;
    expect(cause.message).toContain(`cannot reach the SOCKS proxy 127.0.0.1:${port}`);
    expect(cause.message).not.toContain("topsecret");
  });

  it("encodes target addresses as RFC 1928 says: IPv4, IPv6 (with :: and an IPv4 tail) and names", () => {
    expect([...socksAddress("10.1.2.3")]).toEqual([1, 10, 1, 2, 3]);
    expect([...socksAddress("::1")]).toEqual([4, ...Array(15).fill(0), 1]);
    expect([...socksAddress("2001:db8::8:800:200c:417a")]).toEqual([4, 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0x08, 0x08, 0, 0x20, 0x0c, 0x41, 0x7a]);
    expect([...socksAddress("::ffff:1.2.3.4")]).toEqual([4, ...Array(10).fill(0), 0xff, 0xff, 1, 2, 3, 4]);
    expect([...socksAddress("example.com")]).toEqual([3, 11, ...Buffer.from("example.com")]);
    expect(() => socksAddress("x".repeat(256))).toThrow("too long");
  });
});
