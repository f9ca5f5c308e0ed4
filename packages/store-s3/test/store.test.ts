import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from "@aws-sdk/client-s3";
import { resolveByteRange, ZarrError } from "@zarr/spec";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { S3Store } from "../src/index.js";
import { bytesOf, collect, rejection, startS3, type TestS3 } from "./helpers.js";

let s3: TestS3;
let store: S3Store;
beforeAll(async () => {
  s3 = await startS3(["semantics", "other"]);
  store = s3.store({ bucket: "semantics", prefix: "root/data.zarr" });
});
afterAll(() => s3.close());
beforeEach(async () => {
  await store.deletePrefix("");
  s3.reset();
});

describe("get / set / getSize / delete", () => {
  it("round-trips values into the prefix and reads them back as standalone Uint8Arrays", async () => {
    const value = bytesOf(300);
    await store.set("a/b/c/0", value);
    await store.set("zarr.json", new TextEncoder().encode('{"zarr_format":3}'));
    const got = await store.get("a/b/c/0");
    expect(got).toEqual(value);
    expect(got?.constructor).toBe(Uint8Array);
    expect(got?.byteOffset).toBe(0);
    expect(got?.buffer.byteLength).toBe(300);
    // Small bodies too (the SDK may hand back a view into Node's shared Buffer pool).
    const small = await store.get("zarr.json");
    expect(new TextDecoder().decode(small)).toBe('{"zarr_format":3}');
    expect(small?.byteOffset).toBe(0);
    expect(small?.buffer.byteLength).toBe(small?.length);
    expect(await store.getSize("a/b/c/0")).toBe(300);
    expect(await store.getSize("zarr.json")).toBe(17);

    // The objects really live under the normalised prefix "root/data.zarr/".
    const raw = s3.client();
    const listed = await raw.send(new ListObjectsV2Command({ Bucket: "semantics" }));
    expect(listed.Contents?.map((o) => o.Key).sort()).toEqual(["root/data.zarr/a/b/c/0", "root/data.zarr/zarr.json"]);
    const head = await raw.send(new GetObjectCommand({ Bucket: "semantics", Key: "root/data.zarr/zarr.json" }));
    expect(head.ContentType).toBe("application/json");
  });

  it("writes exactly the viewed bytes of a subarray and copies nothing it should not", async () => {
    const big = bytesOf(100);
    await store.set("view", big.subarray(10, 20));
    expect(await store.get("view")).toEqual(big.slice(10, 20));
    await store.set("empty", new Uint8Array(0));
    expect(await store.get("empty")).toEqual(new Uint8Array(0));
    expect(await store.getSize("empty")).toBe(0);
  });

  it("overwrites, and returns undefined for missing keys", async () => {
    await store.set("k", bytesOf(5));
    await store.set("k", bytesOf(3, 9));
    expect(await store.get("k")).toEqual(bytesOf(3, 9));
    expect(await store.get("missing")).toBeUndefined();
    expect(await store.getSize("missing")).toBeUndefined();
    expect(await store.getRange("missing", { offset: 2, length: 2 })).toBeUndefined();
    expect(await store.getRange("missing", { suffixLength: 2 })).toBeUndefined();
    expect(await store.getRange("missing", { offset: 0 })).toBeUndefined();
    expect(await store.getRange("missing", { offset: 0, length: 0 })).toBeUndefined();
  });

  it("deletes one key; deleting a missing key is fine", async () => {
    await store.set("x/1", bytesOf(1));
    await store.set("x/2", bytesOf(1));
    await store.delete("x/1");
    await store.delete("x/1");
    await store.delete("never/there");
    expect(await store.get("x/1")).toBeUndefined();
    expect(await store.get("x/2")).toEqual(bytesOf(1));
  });

  it("handles keys with spaces, unicode and URL-special characters", async () => {
    const keys = ["with space/zarr.json", "ünïcødé/zarr.json", "ünïcødé/日本語/c/0", "emoji 🧊/a+b=c&d?e#f%20", "dots.in.name/x.y"];
    for (const [i, key] of keys.entries()) await store.set(key, bytesOf(10 + i, i));
    for (const [i, key] of keys.entries()) {
      expect(await store.get(key)).toEqual(bytesOf(10 + i, i));
      expect(await store.getSize(key)).toBe(10 + i);
      expect(await store.getRange(key, { offset: 1, length: 3 })).toEqual(bytesOf(10 + i, i).slice(1, 4));
    }
    expect((await collect(store.list())).sort()).toEqual([...keys].sort());
    expect(await store.listDir("")).toEqual({ keys: [], prefixes: ["dots.in.name", "emoji 🧊", "with space", "ünïcødé"] });
    expect(await store.listDir("ünïcødé/日本語/")).toEqual({ keys: [], prefixes: ["c"] });
    await store.deletePrefix("ünïcødé/");
    expect((await collect(store.list())).sort()).toEqual(keys.filter((k) => !k.startsWith("ü")).sort());
  });
});

describe("getRange", () => {
  const value = bytesOf(100, 3);
  beforeEach(async () => {
    await store.set("r", value);
    s3.reset();
  });

  it("reads bytes=a-b, bytes=a- and bytes=-n with one request each on a conforming answer", async () => {
    expect(await store.getRange("r", { offset: 10, length: 5 })).toEqual(value.slice(10, 15));
    expect(await store.getRange("r", { offset: 95 })).toEqual(value.slice(95));
    expect(s3.seen.map((r) => r.range)).toEqual(["bytes=10-14", "bytes=95-"]);
    expect(await store.getRange("r", { offset: 0 })).toEqual(value); // a plain GET
    expect(s3.seen[2].range).toBeUndefined();
  });

  it("reads suffix ranges correctly even though s3rver answers bytes=-n with the wrong bytes", async () => {
    const got = await store.getRange("r", { suffixLength: 7 });
    expect(got).toEqual(value.slice(93));
    expect(got?.byteOffset).toBe(0);
    // s3rver sent bytes 0-7 (Content-Range says so); the store re-asked for 93-99.
    expect(s3.seen.map((r) => r.range)).toEqual(["bytes=-7", "bytes=93-99"]);
    // A suffix longer than the value is the whole value (s3rver gets this one right by luck).
    s3.reset();
    expect(await store.getRange("r", { suffixLength: 500 })).toEqual(value);
    expect(s3.seen).toHaveLength(1);
  });

  it("clamps like resolveByteRange: past the end is empty (416), overlong lengths are cut", async () => {
    expect(await store.getRange("r", { offset: 100 })).toEqual(new Uint8Array(0));
    expect(await store.getRange("r", { offset: 150, length: 10 })).toEqual(new Uint8Array(0));
    expect(await store.getRange("r", { offset: 90, length: 50 })).toEqual(value.slice(90));
    expect(await store.getRange("r", { offset: 5, length: 0 })).toEqual(new Uint8Array(0));
    expect(await store.getRange("r", { suffixLength: 0 })).toEqual(new Uint8Array(0));
    expect(await store.getRange("r", { offset: 99, length: Number.MAX_SAFE_INTEGER })).toEqual(value.slice(99));
  });

  it("reads a one-byte range at offset 0 (s3rver answers bytes=0-0 with the whole object as a 206)", async () => {
    expect(await store.getRange("r", { offset: 0, length: 1 })).toEqual(value.slice(0, 1));
    expect(await store.getRange("r", { offset: 0, length: 0 })).toEqual(value.slice(0, 0));
  });

  it("matches resolveByteRange for random ranges (property)", async () => {
    const range = fc.oneof(
      fc.record({ offset: fc.nat(120), length: fc.option(fc.nat(120), { nil: undefined }) }),
      fc.record({ suffixLength: fc.nat(120) }),
    );
    await fc.assert(
      fc.asyncProperty(range, async (r) => {
        const [start, end] = resolveByteRange(r, value.length);
        expect(await store.getRange("r", r)).toEqual(value.slice(start, end));
      }),
      { numRuns: 40 },
    );
  });

  it("rejects bad ranges with INVALID_ARGUMENT before any request", async () => {
    for (const bad of [{ offset: -1 }, { offset: 1.5 }, { offset: 0, length: -2 }, { suffixLength: -1 }, { suffixLength: Number.NaN }]) {
      const e = await rejection(store.getRange("r", bad));
      expect(e).toBeInstanceOf(ZarrError);
      expect(e.code).toBe("INVALID_ARGUMENT");
    }
    expect(s3.seen).toHaveLength(0);
  });
});

describe("listing", () => {
  // Every "directory" here holds an object directly: s3rver 3.7 reports a common prefix
  // only when an object sits right below it (S3 also reports prefixes whose objects are
  // all deeper), so a listing of "" would miss a "b/" that held only "b/deep/zarr.json".
  beforeEach(async () => {
    for (const key of ["zarr.json", "a/zarr.json", "a/c/0", "a/c/1", "ab/x", "b/zarr.json", "b/deep/zarr.json", "b/deep/er/zarr.json"]) {
      await store.set(key, bytesOf(2));
    }
    s3.reset();
  });

  it("list and listPrefix yield store keys (without the store prefix)", async () => {
    expect((await collect(store.list())).sort()).toEqual(["a/c/0", "a/c/1", "a/zarr.json", "ab/x", "b/deep/er/zarr.json", "b/deep/zarr.json", "b/zarr.json", "zarr.json"]);
    expect((await collect(store.listPrefix("a/"))).sort()).toEqual(["a/c/0", "a/c/1", "a/zarr.json"]);
    expect((await collect(store.listPrefix("a"))).sort()).toEqual(["a/c/0", "a/c/1", "a/zarr.json", "ab/x"]);
    expect(await collect(store.listPrefix("nothing/"))).toEqual([]);
  });

  it("listDir returns names relative to the prefix, without trailing slashes, sorted", async () => {
    expect(await store.listDir("")).toEqual({ keys: ["zarr.json"], prefixes: ["a", "ab", "b"] });
    expect(await store.listDir("a/")).toEqual({ keys: ["zarr.json"], prefixes: ["c"] });
    expect(await store.listDir("a/c/")).toEqual({ keys: ["0", "1"], prefixes: [] });
    expect(await store.listDir("b/")).toEqual({ keys: ["zarr.json"], prefixes: ["deep"] });
    expect(await store.listDir("b/deep/")).toEqual({ keys: ["zarr.json"], prefixes: ["er"] });
    expect(await store.listDir("nothing/")).toEqual({ keys: [], prefixes: [] });
    expect((await rejection(store.listDir("a"))).code).toBe("KEY_INVALID");
  });

  it("skips objects that are not valid store keys (folder markers)", async () => {
    const raw = s3.client();
    await raw.send(new PutObjectCommand({ Bucket: "semantics", Key: "root/data.zarr/a/", Body: new Uint8Array(0) }));
    await raw.send(new PutObjectCommand({ Bucket: "semantics", Key: "root/data.zarr/folder/", Body: new Uint8Array(0) }));
    expect((await collect(store.listPrefix("a/"))).sort()).toEqual(["a/c/0", "a/c/1", "a/zarr.json"]);
    expect(await store.listDir("a/")).toEqual({ keys: ["zarr.json"], prefixes: ["c"] });
    expect((await store.listDir("")).prefixes).toEqual(["a", "ab", "b", "folder"]);
  });

  it("deletePrefix removes exactly the keys under the prefix", async () => {
    await store.deletePrefix("a/");
    expect((await collect(store.list())).sort()).toEqual(["ab/x", "b/deep/er/zarr.json", "b/deep/zarr.json", "b/zarr.json", "zarr.json"]);
    await store.deletePrefix("nothing/");
    await store.deletePrefix("");
    expect(await collect(store.list())).toEqual([]);
    expect((await rejection(store.deletePrefix("b"))).code).toBe("KEY_INVALID");
  });

  it("stays inside its prefix: other prefixes and buckets are untouched", async () => {
    const sibling = s3.store({ bucket: "semantics", prefix: "root/data.zarr2" });
    const rootStore = s3.store({ bucket: "semantics" });
    const elsewhere = s3.store({ bucket: "other", prefix: "/root/data.zarr/" });
    await sibling.set("zarr.json", bytesOf(1));
    await elsewhere.set("zarr.json", bytesOf(1));
    expect(elsewhere.prefix).toBe("root/data.zarr/");
    expect(await collect(sibling.list())).toEqual(["zarr.json"]);
    expect(await rootStore.listDir("root/")).toEqual({ keys: [], prefixes: ["data.zarr", "data.zarr2"] });
    await store.deletePrefix("");
    expect(await collect(sibling.list())).toEqual(["zarr.json"]);
    expect(await collect(elsewhere.list())).toEqual(["zarr.json"]);
    expect(await rootStore.get("root/data.zarr2/zarr.json")).toEqual(bytesOf(1));
    await sibling.deletePrefix("");
  });
});

describe("keys and options", () => {
  it("rejects invalid keys with KEY_INVALID before any request", async () => {
    for (const key of ["", "/abs", "a//b", "../up", "a/./b", "back\\slash", "nul\0"]) {
      expect((await rejection(store.get(key))).code).toBe("KEY_INVALID");
      expect((await rejection(store.set(key, bytesOf(1)))).code).toBe("KEY_INVALID");
    }
    expect(s3.seen).toHaveLength(0);
  });

  it("normalises and validates the prefix and bucket", () => {
    expect(s3.store({ bucket: "semantics", prefix: "a/b" }).prefix).toBe("a/b/");
    expect(s3.store({ bucket: "semantics", prefix: "/a/b//" }).prefix).toBe("a/b/");
    expect(s3.store({ bucket: "semantics", prefix: "" }).prefix).toBe("");
    expect(s3.store({ bucket: "semantics", prefix: "a/b" }).url).toBe("s3://semantics/a/b/");
    expect(() => s3.store({ bucket: "semantics", prefix: "a/../b" })).toThrow(/Invalid store key "a\/..\/b"/);
    expect(() => s3.store({ bucket: "" })).toThrow(ZarrError);
    expect(() => s3.store({ bucket: "a b" })).toThrow(ZarrError);
    expect(() => s3.store({ bucket: "a/b" })).toThrow(ZarrError);
    expect(() => s3.store({ bucket: "semantics", endpoint: "ftp://x" })).toThrow(/http: or https:/);
    expect(() => s3.store({ bucket: "semantics", maxAttempts: 0 })).toThrow(/maxAttempts/);
    expect(() => s3.store({ bucket: "semantics", anonymous: true, credentials: { accessKeyId: "a", secretAccessKey: "b" } })).toThrow(
      /exclude each other/,
    );
  });

  it("refuses writes with STORE_READ_ONLY when read-only, and still reads", async () => {
    await store.set("zarr.json", bytesOf(4));
    const ro = s3.store({ bucket: "semantics", prefix: "root/data.zarr", readOnly: true });
    s3.reset();
    for (const attempt of [ro.set("zarr.json", bytesOf(1)), ro.delete("zarr.json"), ro.deletePrefix("")]) {
      const e = await rejection(attempt);
      expect(e.code).toBe("STORE_READ_ONLY");
      expect(e.message).toContain("s3://semantics/root/data.zarr/");
    }
    expect(s3.seen).toHaveLength(0);
    expect(await ro.get("zarr.json")).toEqual(bytesOf(4));
    expect(await collect(ro.list())).toEqual(["zarr.json"]);
  });
});
