// gs:// and az:// stores on the command line. For gs://, a local server shaped like Cloud
// Storage's XML API (objects at /BUCKET/KEY, ListBucketResult listings) serves a hierarchy
// written here, found through ZARR_GCS_ENDPOINT and read with GOOGLE_OAUTH_ACCESS_TOKEN,
// without consolidated metadata so that `tree` must list.
import { once } from "node:events";
import { readdirSync, readFileSync, statSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createArray, createGroup, set } from "@zarr/core";
import { FileSystemStore } from "@zarr/store-fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeTempDirs, tempDir, zarr } from "./helpers.js";

const TOKEN = "gcs-token-5e2c71";
let dir: string;
let endpoint: string;
let server: http.Server;
const seen: { url: string; authorization?: string }[] = [];

/** Every file under `root`, as `/`-separated paths relative to it. */
function walk(root: string, sub = ""): string[] {
  return readdirSync(path.join(root, sub)).flatMap((name) => {
    const rel = sub === "" ? name : `${sub}/${name}`;
    return statSync(path.join(root, rel)).isDirectory() ? walk(root, rel) : [rel];
  });
}

const escapeXml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");

function listBucket(query: URLSearchParams): string {
  const prefix = query.get("prefix") ?? "";
  const delimiter = query.get("delimiter") ?? "";
  const keys: string[] = [];
  const prefixes = new Set<string>();
  for (const name of walk(dir).sort()) {
    if (!name.startsWith(prefix)) continue;
    const cut = delimiter === "" ? -1 : name.indexOf(delimiter, prefix.length);
    if (cut === -1) keys.push(name);
    else prefixes.add(name.slice(0, cut + 1));
  }
  const contents = keys.map((k) => `<Contents><Key>${escapeXml(k)}</Key></Contents>`).join("");
  const common = [...prefixes].map((p) => `<CommonPrefixes><Prefix>${escapeXml(p)}</Prefix></CommonPrefixes>`).join("");
  return `<?xml version='1.0' encoding='UTF-8'?><ListBucketResult><Name>bucket</Name><IsTruncated>false</IsTruncated>${contents}${common}</ListBucketResult>`;
}

beforeAll(async () => {
  dir = tempDir("zarr-cli-gcs-");
  const store = new FileSystemStore(path.join(dir, "data.zarr"));
  await createGroup(store, "", { attributes: { title: "in a bucket" } });
  const a = await createArray(store, "a", { shape: [2, 3], chunkShape: [1, 3], dataType: "int16" });
  await set(a, null, new Int16Array([1, 2, 3, 4, 5, 6]));
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    seen.push({ url: req.url ?? "", authorization: req.headers.authorization });
    if (req.headers.authorization !== `Bearer ${TOKEN}`) {
      return res.writeHead(401, { "content-type": "application/xml" }).end("<Error><Code>AuthenticationRequired</Code></Error>");
    }
    const [, bucket, ...rest] = url.pathname.split("/");
    if (bucket !== "bucket") return res.writeHead(404).end("<Error><Code>NoSuchBucket</Code></Error>");
    if (rest.length === 0 || rest.join("/") === "") return res.writeHead(200, { "content-type": "application/xml" }).end(listBucket(url.searchParams));
    let bytes: Buffer;
    try {
      bytes = readFileSync(path.join(dir, ...rest.map(decodeURIComponent)));
    } catch {
      return res.writeHead(404).end("<Error><Code>NoSuchKey</Code></Error>");
    }
    res.writeHead(200, { "content-length": bytes.length }).end(req.method === "HEAD" ? undefined : bytes);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
  removeTempDirs();
});

/** No credentials or endpoints from the test's own environment. */
const CLEAN = { GCS_HMAC_ACCESS_KEY_ID: "", GCS_HMAC_SECRET: "", GOOGLE_OAUTH_ACCESS_TOKEN: "", STORAGE_EMULATOR_HOST: "", ZARR_GCS_ENDPOINT: "", AZURE_STORAGE_ACCOUNT: "", AZURE_STORAGE_SAS_TOKEN: "", ZARR_AZURE_ENDPOINT: "" };

describe("gs:// stores", () => {
  it("info and tree read a bucket through ZARR_GCS_ENDPOINT with a bearer token", async () => {
    seen.length = 0;
    const env = { ...CLEAN, ZARR_GCS_ENDPOINT: endpoint, GOOGLE_OAUTH_ACCESS_TOKEN: TOKEN };
    const info = await zarr(["info", "gs://bucket/data.zarr", "a"], { env });
    expect(info.code, info.stderr).toBe(0);
    expect(info.stdout.toString()).toContain("int16");
    const tree = await zarr(["tree", "gs://bucket/data.zarr", "--json"], { env });
    expect(tree.code, tree.stderr).toBe(0);
    expect(tree.stdout.toString()).toContain('"/a"');
    expect(seen.some((s) => s.url.startsWith("/bucket?") && s.url.includes("delimiter=%2F"))).toBe(true);
    expect(seen.every((s) => s.authorization === `Bearer ${TOKEN}`)).toBe(true);
    const get = await zarr(["get", "gs://bucket/data.zarr", "a", "--format", "json"], { env: { ...CLEAN, STORAGE_EMULATOR_HOST: endpoint.slice("http://".length), GOOGLE_OAUTH_ACCESS_TOKEN: TOKEN } });
    expect(get.code, get.stderr).toBe(0);
    expect(JSON.parse(get.stdout.toString()).values.map(Number)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("a refused token fails with exit 1, and the token is never printed", async () => {
    const wrong = "wrong-gcs-token-93ad";
    const r = await zarr(["tree", "gs://bucket/data.zarr"], { env: { ...CLEAN, ZARR_GCS_ENDPOINT: endpoint, GOOGLE_OAUTH_ACCESS_TOKEN: wrong } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/401/);
    expect(r.stderr).not.toContain(wrong);
  });
});

describe("az:// stores", () => {
  it("load @zarr/store-azure and say what is missing without an account", async () => {
    const r = await zarr(["info", "az://container/data.zarr"], { env: CLEAN });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("No Azure storage account");
    expect(r.stderr).toContain("AZURE_STORAGE_ACCOUNT");
  });
});
