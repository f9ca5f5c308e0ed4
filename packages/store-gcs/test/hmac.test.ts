/**
 * The HMAC path: GCS's S3-compatible XML API through @zarr/store-s3, against a real
 * s3rver on 127.0.0.1 standing in for storage.googleapis.com.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRegistry, openStore } from "@zarr/core";
import S3rver from "s3rver";
import { afterAll, beforeAll, expect, it } from "vitest";
import { GcsStore, gcsStoreEntry } from "../src/index.js";
import { collect, rejection } from "./fake-gcs.js";

// s3rver does not check signatures, so a wrong secret cannot be tested here; the requests
// are checked to carry SigV4 signatures for region `auto` instead.

// s3rver's built-in account, used as the HMAC key.
const HMAC = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
const text = (s: string) => new TextEncoder().encode(s);
let endpoint: string;
let directory: string;
let server: ReturnType<typeof createServer>;
const seen: { method: string; url: string; authorization: string }[] = [];

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), "zarr-gcs-s3rver-"));
  const s3rver = new S3rver({ silent: true, directory, configureBuckets: [{ name: "hmac-bucket" }] });
  await s3rver.configureBuckets();
  const handle = s3rver.callback();
  // s3rver mounted in our own server, so the test sees each request's method and signature.
  server = createServer((req, res) => {
    seen.push({ method: req.method ?? "", url: req.url ?? "", authorization: req.headers.authorization ?? "" });
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(directory, { recursive: true, force: true });
});

it("reads, writes, lists and deletes with SigV4 signatures for region auto, path-style", async () => {
  const store = new GcsStore({ bucket: "hmac-bucket", prefix: "data.zarr", endpoint, hmac: HMAC, env: {} });
  expect(store.access).toBe("hmac");
  expect(store.readOnly).toBe(false);
  seen.length = 0;
  await store.set("zarr.json", text('{"zarr_format":3,"node_type":"group"}'));
  await store.set("a/c/0", text("chunk 0"));
  await store.set("a/c/1", text("chunk 1"));
  // s3rver reports a common prefix only for objects one level below it, so "a/" needs one.
  await store.set("a/zarr.json", text('{"zarr_format":3,"node_type":"group"}'));
  expect(new TextDecoder().decode(await store.get("a/c/1"))).toBe("chunk 1");
  expect(new TextDecoder().decode(await store.getRange("a/c/1", { suffixLength: 1 }))).toBe("1");
  expect(await store.getSize("a/c/0")).toBe(7);
  expect(await store.get("a/c/9")).toBeUndefined();
  expect(await store.listDir("")).toEqual({ keys: ["zarr.json"], prefixes: ["a"] });
  expect((await collect(store.listPrefix("a/"))).sort()).toEqual(["a/c/0", "a/c/1", "a/zarr.json"]);
  const version = await store.getVersioned("a/c/0", undefined);
  expect(version?.version).toMatch(/^".+"$/);
  await store.deletePrefix("a/");
  expect(await collect(store.list())).toEqual(["zarr.json"]);
  expect(seen.length).toBeGreaterThan(8);
  for (const r of seen) {
    expect(r.url.startsWith("/hmac-bucket")).toBe(true); // path-style
    expect(r.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=S3RVER\/\d{8}\/auto\/s3\/aws4_request/);
  }
  // The XML API has no multi-object delete: keys go one DELETE each.
  expect(seen.some((r) => r.method === "POST")).toBe(false);
  // (s3rver sometimes answers 500 to concurrent deletes in one directory; the SDK retries.)
  const deleted = new Set(seen.filter((r) => r.method === "DELETE").map((r) => r.url.split("?")[0]));
  expect([...deleted].sort()).toEqual(["/hmac-bucket/data.zarr/a/c/0", "/hmac-bucket/data.zarr/a/c/1", "/hmac-bucket/data.zarr/a/zarr.json"]);
  await store.delete("zarr.json");
  store.close();
  expect((await rejection(store.get("zarr.json"))).code).toBe("INVALID_ARGUMENT");
});

it("takes the HMAC key and endpoint from the environment through gs:// URLs", async () => {
  const registry = createRegistry([gcsStoreEntry]);
  const env = { ZARR_GCS_ENDPOINT: endpoint, GCS_HMAC_ACCESS_KEY_ID: HMAC.accessKeyId, GCS_HMAC_SECRET: HMAC.secretAccessKey };
  const store = (await openStore("gs://hmac-bucket/env.zarr", { registry, env })) as GcsStore;
  expect(store.access).toBe("hmac");
  await store.set("k", text("v"));
  expect(new TextDecoder().decode(await store.get("k"))).toBe("v");
  await store.delete("k");
  store.close();
});
