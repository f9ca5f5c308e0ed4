// The CLI's http(s) stores: request headers from --header and ZARR_HTTP_HEADERS (never
// printed), and proxies from HTTP_PROXY/NO_PROXY. A local server that wants a token serves
// a small hierarchy written here; a small forwarding proxy records what passes through it.
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { consolidateMetadata, createArray, createGroup, set } from "@zarr/core";
import { FileSystemStore } from "@zarr/store-fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandHeaders, parseHeaderLines } from "../src/http-headers.js";
import { zarr } from "./helpers.js";

const TOKEN = "tok-7f3a9c";
const WRONG = "wrong-4b1d2e";
const seen: { url: string; authorization?: string; other?: string }[] = [];
const proxied: string[] = [];
let dir: string;
let base: string;
let proxyUrl: string;
const servers: http.Server[] = [];

async function listen(s: http.Server): Promise<string> {
  servers.push(s);
  s.listen(0, "127.0.0.1");
  await once(s, "listening");
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "zarr-cli-headers-"));
  const store = new FileSystemStore(path.join(dir, "data.zarr"));
  await createGroup(store, "", { attributes: { title: "behind a token" } });
  const a = await createArray(store, "a", { shape: [2, 3], chunkShape: [2, 3], dataType: "int16" });
  await set(a, null, new Int16Array([1, 2, 3, 4, 5, 6]));
  await consolidateMetadata(store); // plain HTTP cannot list: info and tree read this
  base = `${await listen(
    http.createServer((req, res) => {
      const url = req.url ?? "";
      seen.push({ url, authorization: req.headers.authorization, other: req.headers["x-other"] as string | undefined });
      if (req.headers.authorization !== `Bearer ${TOKEN}`) return res.writeHead(401).end("a token is needed");
      let bytes: Buffer;
      try {
        bytes = readFileSync(path.join(dir, decodeURIComponent(new URL(url, "http://x").pathname)));
      } catch {
        return res.writeHead(404).end();
      }
      res.writeHead(200, { "content-length": bytes.length }).end(req.method === "HEAD" ? undefined : bytes);
    }),
  )}/data.zarr`;
  proxyUrl = await listen(
    http.createServer((req, res) => {
      proxied.push(req.url ?? "");
      const upstream = http.request(req.url ?? "", { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on("error", () => res.writeHead(502).end());
      req.pipe(upstream);
    }),
  );
});

afterAll(() => {
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
  rmSync(dir, { recursive: true, force: true });
});

/** No proxy from the test's own environment. */
const NO_ENV_PROXY = { HTTP_PROXY: "", http_proxy: "", HTTPS_PROXY: "", https_proxy: "", NO_PROXY: "", no_proxy: "", ZARR_HTTP_HEADERS: "" };

describe("zarr with --header and ZARR_HTTP_HEADERS", () => {
  it("without the token a store behind one fails; with --header it opens (tree, get)", async () => {
    const denied = await zarr(["tree", base], { env: NO_ENV_PROXY });
    expect(denied.code).toBe(1);
    expect(denied.stderr).toMatch(/401/);
    const tree = await zarr(["tree", base, "--header", `Authorization: Bearer ${TOKEN}`, "--json"], { env: NO_ENV_PROXY });
    expect(tree.code, tree.stderr).toBe(0);
    expect(tree.stdout.toString()).toContain('"/a"');
    const get = await zarr(["get", base, "a", "--header", `Authorization: Bearer ${TOKEN}`, "--format", "json"], { env: NO_ENV_PROXY });
    expect(get.code, get.stderr).toBe(0);
    const result = JSON.parse(get.stdout.toString());
    expect(result.shape).toEqual([2, 3]);
    expect(result.values.map(Number)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("sends them for a zip archive over HTTP too (zip+http://)", async () => {
    const made = await zarr(["cp", path.join(dir, "data.zarr"), path.join(dir, "data.zip")], { env: NO_ENV_PROXY });
    expect(made.code, made.stderr).toBe(0);
    const url = `zip+${base.replace(/data\.zarr$/, "data.zip")}`;
    expect((await zarr(["get", url, "a"], { env: NO_ENV_PROXY })).stderr).toMatch(/401/);
    const get = await zarr(["get", url, "a", "--header", `Authorization: Bearer ${TOKEN}`], { env: NO_ENV_PROXY });
    expect(get.code, get.stderr).toBe(0);
    expect(JSON.parse(get.stdout.toString()).values.map(Number)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("reads ZARR_HTTP_HEADERS (\\r\\n or \\n between entries), and --header overrides a name given there", async () => {
    seen.length = 0;
    const env = { ...NO_ENV_PROXY, ZARR_HTTP_HEADERS: `X-Other: one\r\nAuthorization: Bearer ${TOKEN}\n` };
    const ok = await zarr(["tree", base], { env });
    expect(ok.code, ok.stderr).toBe(0);
    expect(seen.every((s) => s.authorization === `Bearer ${TOKEN}` && s.other === "one")).toBe(true);
    const overridden = await zarr(["tree", base, "--header", `authorization: Bearer ${WRONG}`], { env });
    expect(overridden.code).toBe(1);
  });

  it("never prints a header value: a refused token, a malformed entry in either place", async () => {
    const refused = await zarr(["tree", base, "--header", `Authorization: Bearer ${WRONG}`, "--header", `X-Api-Key: ${WRONG}`], { env: NO_ENV_PROXY });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/401/);
    const badFlag = await zarr(["get", base, "a", "--header", `Authorization Bearer ${WRONG}`], { env: NO_ENV_PROXY });
    expect(badFlag.code).toBe(1);
    expect(badFlag.stderr).toContain("--header #1");
    const badEnv = await zarr(["tree", base], { env: { ...NO_ENV_PROXY, ZARR_HTTP_HEADERS: `Authorization: Bearer ${TOKEN}\nnot a header ${WRONG}` } });
    expect(badEnv.code).toBe(1);
    expect(badEnv.stderr).toContain("ZARR_HTTP_HEADERS line 2");
    for (const r of [refused, badFlag, badEnv]) {
      expect(r.stderr).not.toContain(WRONG);
      expect(r.stderr).not.toContain(TOKEN);
      expect(r.stdout.toString()).not.toContain(WRONG);
    }
  });

  it("parses entries: names checked, values trimmed, later names win, errors name no value", () => {
    expect(parseHeaderLines("A: 1\r\n\r\nb-c:  two words \n", "ENV")).toEqual([
      ["A", "1"],
      ["b-c", "two words"],
    ]);
    expect(commandHeaders(["Authorization: y", "x-key:"], { ZARR_HTTP_HEADERS: "authorization: x\nX-Other: 1" })).toEqual({ authorization: "y", "x-other": "1", "x-key": "" });
    expect(commandHeaders(undefined, {})).toBeUndefined();
    expect(() => commandHeaders(["Bad Name: s3cret"], {})).toThrow(/--header #1: expected "Name: value"/);
    expect(() => commandHeaders([": s3cret"], {})).toThrow(/--header #1/);
    expect(() => commandHeaders(["A: s3\0cret"], {})).toThrow(/header A holds a NUL/);
    expect(() => commandHeaders(["A: s3\u0100cret"], {})).toThrow(/header A holds .* past Latin-1/);
    for (const bad of [["Bad Name: s3cret"], ["A: s3\0cret"], ["A: s3\u0100cret"]]) {
      try {
        commandHeaders(bad, {});
      } catch (error) {
        expect((error as Error).message).not.toContain("s3");
        expect((error as { code?: string }).code).toBe("INVALID_ARGUMENT");
      }
    }
  });
});

describe("zarr and proxies from the environment", () => {
  it("goes through HTTP_PROXY, and directly to hosts in NO_PROXY", async () => {
    proxied.length = 0;
    const header = ["--header", `Authorization: Bearer ${TOKEN}`];
    const via = await zarr(["tree", base, ...header], { env: { ...NO_ENV_PROXY, HTTP_PROXY: proxyUrl } });
    expect(via.code, via.stderr).toBe(0);
    expect(proxied.length).toBeGreaterThan(0);
    expect(proxied.every((u) => u.startsWith(`${base}/`))).toBe(true);
    proxied.length = 0;
    const direct = await zarr(["tree", base, ...header], { env: { ...NO_ENV_PROXY, http_proxy: proxyUrl, NO_PROXY: "localhost,127.0.0.1" } });
    expect(direct.code, direct.stderr).toBe(0);
    expect(proxied).toEqual([]);
  });
});
