import { createArray, createRegistry, get, openArray, openStore, set } from "@zarr/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseS3Url, S3Store, s3StoreEntry } from "../src/index.js";
import { bytesOf, CREDENTIALS, rejection, startS3, type TestS3 } from "./helpers.js";

let s3: TestS3;
const registry = createRegistry([s3StoreEntry]);
beforeAll(async () => {
  s3 = await startS3(["entry"]);
});
afterAll(() => s3.close());

describe("parseS3Url", () => {
  it("parses the bucket, the percent-decoded prefix and the query options", () => {
    expect(parseS3Url("s3://bucket")).toEqual({ bucket: "bucket", prefix: "" });
    expect(parseS3Url("s3://bucket/")).toEqual({ bucket: "bucket", prefix: "" });
    expect(parseS3Url("s3://bucket/a/b.zarr/")).toEqual({ bucket: "bucket", prefix: "a/b.zarr/" });
    expect(parseS3Url("s3://bucket/with%20space/%C3%BC")).toEqual({ bucket: "bucket", prefix: "with space/ü" });
    expect(
      parseS3Url("s3://b/p?endpoint=http://127.0.0.1:4569&region=eu-west-1&anonymous=true&forcePathStyle=false&maxAttempts=5#frag"),
    ).toEqual({ bucket: "b", prefix: "p", endpoint: "http://127.0.0.1:4569", region: "eu-west-1", anonymous: true, forcePathStyle: false, maxAttempts: 5 });
    expect(parseS3Url("s3://b?anonymous").anonymous).toBe(true);
    expect(parseS3Url("s3://b?anonymous=0").anonymous).toBe(false);
    expect(parseS3Url("s3://b?forbiddenAsMissing=true").forbiddenAsMissing).toBe(true);
    expect(parseS3Url("s3://b?endpoint=http%3A%2F%2Fminio%3A9000").endpoint).toBe("http://minio:9000");
  });

  it("rejects malformed URLs and unknown options with INVALID_ARGUMENT", () => {
    for (const bad of ["http://bucket/x", "s3://", "s3:///prefix", "s3://b/%zz", "s3://b?anonymous=yes", "s3://b?maxAttempts=0", "s3://b?endpoint_url=x"]) {
      expect(() => parseS3Url(bad), bad).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    }
    expect(() => parseS3Url("s3://b?endpont=x")).toThrow(/unknown option "endpont"/);
  });
});

describe("s3StoreEntry through openStore", () => {
  it("opens s3:// URLs with the endpoint, path style and credentials from options", async () => {
    const url = `s3://entry/data/x.zarr?endpoint=${encodeURIComponent(s3.endpoint)}&forcePathStyle=true&region=eu-west-1`;
    const store = await openStore(url, { registry, credentials: CREDENTIALS, maxAttempts: 3 });
    expect(store).toBeInstanceOf(S3Store);
    const s = store as S3Store;
    expect(s.bucket).toBe("entry");
    expect(s.prefix).toBe("data/x.zarr/");
    expect(s.readOnly).toBe(false);
    expect(await s.client.config.region()).toBe("eu-west-1");
    const arr = await createArray(s, "a", { shape: [4], chunkShape: [2], dataType: "int16", codecs: [{ name: "bytes", configuration: { endian: "little" } }] });
    await set(arr, null, new Int16Array([1, -2, 3, -4]));
    expect((await get(await openArray(s, "a"), null)).data).toEqual(new Int16Array([1, -2, 3, -4]));
    expect(s3.seen.some((r) => r.url.startsWith("/entry/data/x.zarr/a/c/0"))).toBe(true);
    s.close();
  });

  it("lets options override the URL, and readOnly through", async () => {
    const url = `s3://entry/data/x.zarr?endpoint=http://127.0.0.1:9&region=eu-west-1&anonymous=true`;
    const store = (await openStore(url, {
      registry,
      endpoint: s3.endpoint,
      region: "us-west-2",
      anonymous: false,
      credentials: CREDENTIALS,
      readOnly: true,
    })) as S3Store;
    expect(await store.client.config.region()).toBe("us-west-2");
    expect(store.readOnly).toBe(true);
    expect(await store.getSize("a/zarr.json")).toBeGreaterThan(0);
    expect((await rejection(store.set("x", bytesOf(1)))).code).toBe("STORE_READ_ONLY");
    s3.reset();
    await store.get("a/zarr.json");
    expect(s3.seen[0].signed).toBe(true);
    store.close();
  });

  it("with a client in the options, the URL's client settings are dropped", async () => {
    const client = s3.client();
    const store = (await openStore("s3://entry/data/x.zarr?endpoint=http://127.0.0.1:9&region=eu-west-1", { registry, client })) as S3Store;
    expect(store.client).toBe(client);
    expect(await store.getSize("a/zarr.json")).toBeGreaterThan(0);
    expect(store.forbiddenAsMissing).toBe(false);
    const lenient = (await openStore("s3://entry/data/x.zarr?region=eu-west-1&forbiddenAsMissing=1", { registry, client })) as S3Store;
    expect(lenient.forbiddenAsMissing).toBe(true); // not a client setting: kept
  });

  it("anonymous=true in the URL gives unsigned requests", async () => {
    const store = (await openStore(`s3://entry/data/x.zarr?endpoint=${s3.endpoint}&anonymous=true&forbiddenAsMissing`, { registry })) as S3Store;
    expect(store.forbiddenAsMissing).toBe(true);
    s3.reset();
    expect(await store.getSize("a/zarr.json")).toBeGreaterThan(0);
    expect(s3.seen.map((r) => r.signed)).toEqual([false]);
    store.close();
  });

  it("type-checks the untyped options bag", async () => {
    const e = await rejection(Promise.resolve().then(() => openStore("s3://entry", { registry, region: 42 })));
    expect(e.code).toBe("INVALID_ARGUMENT");
    expect(e.message).toContain('"region" must be string');
    const f = await rejection(Promise.resolve().then(() => openStore("s3://entry", { registry, credentials: "secret" })));
    expect(f.message).toContain('"credentials" must be object or function');
  });

  it("describes itself for the registry", () => {
    expect(s3StoreEntry).toMatchObject({ type: "store", name: "s3", schemes: ["s3"], package: "@zarr/store-s3" });
  });
});
