/** The anonymous and bearer-token paths against a local XML-API server (fake-gcs.ts). */
import { createArray, createRegistry, get, open, openStore, set } from "@zarr/core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GcsStore, gcsStoreEntry } from "../src/index.js";
import { collect, type FakeGcs, rejection, startFakeGcs } from "./fake-gcs.js";

let gcs: FakeGcs;
const text = (s: string) => new TextEncoder().encode(s);
const NO_ENV = {};

beforeAll(async () => {
  gcs = await startFakeGcs(["public-data", "private-data"]);
});
afterAll(async () => gcs.close());
beforeEach(() => {
  gcs.seen.length = 0;
  gcs.pageSize = 1000;
  gcs.token = undefined;
  gcs.privateReads = false;
  const objects = gcs.buckets.get("public-data") as Map<string, Uint8Array>;
  objects.clear();
  for (const key of ["era5.zarr/zarr.json", "era5.zarr/t2m/zarr.json", "era5.zarr/t2m/c/0/0", "era5.zarr/t2m/c/0/1", "era5.zarr/a b&c.txt", "era5.zarr/dir/", "other/x"]) {
    objects.set(key, text(`value of ${key}`));
  }
});

function anonymous(extra: Partial<ConstructorParameters<typeof GcsStore>[0]> = {}): GcsStore {
  return new GcsStore({ bucket: "public-data", prefix: "era5.zarr", endpoint: gcs.endpoint, env: NO_ENV, retries: 0, ...extra });
}

describe("anonymous reads", () => {
  it("gets whole values, ranges and sizes with unsigned GETs under /BUCKET/PREFIX/", async () => {
    const store = anonymous();
    expect(store.access).toBe("anonymous");
    expect(store.readOnly).toBe(true);
    expect(store.url).toBe("gs://public-data/era5.zarr/");
    expect(new TextDecoder().decode(await store.get("t2m/c/0/0"))).toBe("value of era5.zarr/t2m/c/0/0");
    expect(new TextDecoder().decode(await store.getRange("t2m/c/0/0", { offset: 6, length: 2 }))).toBe("of");
    expect(new TextDecoder().decode(await store.getRange("t2m/c/0/0", { suffixLength: 3 }))).toBe("0/0");
    expect(await store.getSize("zarr.json")).toBe("value of era5.zarr/zarr.json".length);
    expect(await store.get("t2m/c/9/9")).toBeUndefined();
    expect(new TextDecoder().decode(await store.get("a b&c.txt"))).toBe("value of era5.zarr/a b&c.txt");
    expect(gcs.seen.every((r) => r.authorization === undefined)).toBe(true);
    expect(gcs.seen.map((r) => r.url)).toContain("/public-data/era5.zarr/a%20b%26c.txt");
    expect(gcs.seen.find((r) => r.range === "bytes=-3")).toBeDefined();
  });

  it("lists one level and whole prefixes through ListBucketResult, across pages", async () => {
    gcs.pageSize = 2;
    const store = anonymous();
    expect(await store.listDir("")).toEqual({ keys: ["a b&c.txt", "zarr.json"], prefixes: ["dir", "t2m"] });
    expect(await store.listDir("t2m/")).toEqual({ keys: ["zarr.json"], prefixes: ["c"] });
    expect((await collect(store.list())).sort()).toEqual(["a b&c.txt", "t2m/c/0/0", "t2m/c/0/1", "t2m/zarr.json", "zarr.json"]);
    expect(await collect(store.listPrefix("t2m/c/"))).toEqual(["t2m/c/0/0", "t2m/c/0/1"]);
    const listings = gcs.seen.filter((r) => r.url.startsWith("/public-data?"));
    expect(listings.some((r) => r.url.includes("marker="))).toBe(true);
    expect(listings.some((r) => r.url.includes("delimiter=%2F"))).toBe(true);
  });

  it("refuses writes with STORE_READ_ONLY, before any request", async () => {
    const store = anonymous();
    const error = await rejection(store.set("zarr.json", text("{}")));
    expect(error.code).toBe("STORE_READ_ONLY");
    expect(error.message).toContain("anonymous");
    expect((await rejection(store.deletePrefix(""))).code).toBe("STORE_READ_ONLY");
    expect(gcs.seen).toEqual([]);
  });

  it("fails listing a missing bucket with STORE_FAILED naming the service's code", async () => {
    const store = new GcsStore({ bucket: "no-such-bucket", endpoint: gcs.endpoint, env: NO_ENV, retries: 0 });
    const error = await rejection(store.listDir(""));
    expect(error.code).toBe("STORE_FAILED");
    expect(error.message).toContain("gs://no-such-bucket/");
    expect(error.message).toContain("HTTP 404 NoSuchBucket");
  });

  it("reads a 403 as missing only with forbiddenAsMissing", async () => {
    gcs.token = "t";
    gcs.privateReads = true;
    expect((await rejection(anonymous().get("zarr.json"))).code).toBe("STORE_FAILED");
    gcs.seen.length = 0;
    // The fake answers 401 for an unauthenticated request; GCS answers 403 when the caller may not read.
    const store = anonymous({ forbiddenAsMissing: true, fetch: async (url, init) => {
      const response = await fetch(url, init);
      return response.status === 401 ? new Response(null, { status: 403 }) : response;
    } });
    expect(await store.get("zarr.json")).toBeUndefined();
  });
});

describe("bearer token", () => {
  it("sends Authorization: Bearer on reads, listings and writes, with a fresh token per request", async () => {
    gcs.token = "secret-token-1";
    gcs.privateReads = true;
    let calls = 0;
    const store = new GcsStore({
      bucket: "public-data", prefix: "new.zarr", endpoint: gcs.endpoint, env: NO_ENV, retries: 0,
      token: async () => {
        calls++;
        return "secret-token-1";
      },
    });
    expect(store.access).toBe("token");
    expect(store.readOnly).toBe(false);
    await store.set("k/v", text("written"));
    expect(new TextDecoder().decode(await store.get("k/v"))).toBe("written");
    expect(await store.listDir("k/")).toEqual({ keys: ["v"], prefixes: [] });
    await store.deletePrefix("");
    expect(await collect(store.list())).toEqual([]);
    expect(gcs.seen.length).toBeGreaterThan(4);
    expect(gcs.seen.every((r) => r.authorization === "Bearer secret-token-1")).toBe(true);
    expect(calls).toBeGreaterThanOrEqual(gcs.seen.length);
  });

  it("never puts the token in an error message", async () => {
    gcs.token = "the-right-token";
    gcs.privateReads = true;
    const store = new GcsStore({ bucket: "public-data", endpoint: gcs.endpoint, env: NO_ENV, retries: 0, token: "a-wrong-token-XYZ" });
    for (const failing of [() => store.get("era5.zarr/zarr.json"), () => store.listDir(""), () => store.set("x", text("x"))]) {
      const error = await rejection(failing());
      expect(error.code).toBe("STORE_FAILED");
      expect(error.message).toContain("401");
      expect(error.message).not.toContain("a-wrong-token-XYZ");
      expect(String((error as Error).stack)).not.toContain("a-wrong-token-XYZ");
    }
  });

  it("takes the token from GOOGLE_OAUTH_ACCESS_TOKEN", async () => {
    gcs.token = "from-env";
    gcs.privateReads = true;
    const store = new GcsStore({ bucket: "public-data", prefix: "era5.zarr", env: { ZARR_GCS_ENDPOINT: gcs.endpoint, GOOGLE_OAUTH_ACCESS_TOKEN: "from-env" } });
    expect(store.access).toBe("token");
    expect(await store.getSize("zarr.json")).toBeGreaterThan(0);
  });

  it("writes and reads an array through @zarr/core", async () => {
    gcs.token = "tok";
    const store = new GcsStore({ bucket: "private-data", prefix: "arr.zarr", endpoint: gcs.endpoint, env: NO_ENV, token: "tok" });
    const array = await createArray(store, "t", { shape: [4], chunkShape: [2], dataType: "int16", fillValue: 0 });
    await set(array, null, Int16Array.from([1, 2, 3, 4]));
    const reader = new GcsStore({ bucket: "private-data", prefix: "arr.zarr", endpoint: gcs.endpoint, env: NO_ENV });
    const opened = await open(reader, "t");
    expect(Array.from((await get(opened as never, null)).data as Int16Array)).toEqual([1, 2, 3, 4]);
    expect([...(gcs.buckets.get("private-data")?.keys() ?? [])].sort()).toEqual(["arr.zarr/t/c/0", "arr.zarr/t/c/1", "arr.zarr/t/zarr.json", "arr.zarr/zarr.json"]);
  });
});

describe("gs:// URLs through openStore", () => {
  const registry = createRegistry([gcsStoreEntry]);

  it("opens gs://bucket/prefix with the endpoint from ZARR_GCS_ENDPOINT or STORAGE_EMULATOR_HOST (host:port)", async () => {
    const viaEnv = (await openStore("gs://public-data/era5.zarr", { registry, env: { ZARR_GCS_ENDPOINT: gcs.endpoint } })) as GcsStore;
    expect(viaEnv.endpoint).toBe(gcs.endpoint);
    expect(await viaEnv.getSize("zarr.json")).toBeGreaterThan(0);
    const hostPort = gcs.endpoint.replace("http://", "");
    const emulator = (await openStore("gs://public-data/era5.zarr/", { registry, env: { STORAGE_EMULATOR_HOST: hostPort } })) as GcsStore;
    expect(emulator.endpoint).toBe(gcs.endpoint);
    expect((await emulator.listDir("t2m/")).keys).toEqual(["zarr.json"]);
  });

  it("takes the endpoint and flags from the query, and settings from the options", async () => {
    const url = `gs://public-data/era5.zarr?endpoint=${encodeURIComponent(gcs.endpoint)}&anonymous=true`;
    const store = (await openStore(url, { registry, env: { GOOGLE_OAUTH_ACCESS_TOKEN: "ignored" } })) as GcsStore;
    expect(store.access).toBe("anonymous");
    const withToken = (await openStore(url, { registry, token: "t", env: NO_ENV })) as GcsStore;
    expect(withToken.access).toBe("token");
    const readOnly = (await openStore(url, { registry, token: "t", readOnly: true, env: NO_ENV })) as GcsStore;
    expect(readOnly.readOnly).toBe(true);
  });

  it("refuses bad URLs and options with INVALID_ARGUMENT", async () => {
    for (const [url, options, words] of [
      ["gs:///prefix", {}, "no bucket"],
      ["gs://b/p?region=x", {}, 'unknown option "region"'],
      ["gs://b/p?anonymous=maybe", {}, "anonymous must be true or false"],
      ["gs://B_AD/p", { env: NO_ENV }, "Invalid GCS bucket name"],
      ["gs://bucket/p", { token: 5 }, 'option "token" must be string or function'],
      ["gs://bucket/p", { token: "t", hmac: { accessKeyId: "a", secretAccessKey: "b" } }, "exclude each other"],
      ["gs://bucket/p", { env: { GCS_HMAC_ACCESS_KEY_ID: "id" } }, "GCS_HMAC_SECRET"],
      ["gs://bucket/p", { endpoint: "ftp://x" }, "must be http: or https:"],
      ["gs://bucket/a/../b", { env: NO_ENV }, "Invalid"],
    ] as const) {
      const error = await rejection(openStore(url, { registry, ...options }));
      expect(error.code, url).toMatch(/INVALID_ARGUMENT|KEY_INVALID/);
      expect(error.message, url).toContain(words);
    }
  });
});
