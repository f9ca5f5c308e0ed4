/**
 * Consistent partial reads under rewrites: with a store that has versioned reads, the
 * inner chunks of a shard are read from the version its index came from. A rewrite
 * between the index read and the inner chunk reads (or behind a cached index) makes the
 * read start over with the new index; a shard that keeps changing fails with
 * `STORE_CHANGED`. Never another inner chunk's bytes.
 */
import {
  type ByteRange,
  createArray,
  get,
  type JsonObject,
  MemoryStore,
  openArray,
  set,
  slice,
  storeChanged,
  type VersionedBytes,
  type VersionedReadOptions,
  ZarrError,
} from "@zarr/core";
import { resolveByteRange } from "@zarr/spec";
import { beforeAll, describe, expect, it } from "vitest";
import { registryWith } from "./helpers.js";

const BYTES: JsonObject = { name: "bytes", configuration: { endian: "little" } };
const SHARD = "a/c/0";

/** One read the store saw: the index (a suffix range) or inner chunk bytes. */
type Seen = { kind: "index" | "data"; version: number; ifVersion?: string; failed?: boolean };

/**
 * A MemoryStore with versioned reads: each key's version counts its writes. `onRead` runs
 * before every versioned read of the shard (the test rewrites the shard there).
 */
class VersionedStore extends MemoryStore {
  readonly versions = new Map<string, number>();
  readonly seen: Seen[] = [];
  onRead: ((kind: Seen["kind"]) => void) | undefined;

  /** Replaces a value as another process would: a new version. */
  replace(key: string, value: Uint8Array): void {
    this.map.set(key, value);
    this.versions.set(key, (this.versions.get(key) ?? 0) + 1);
  }

  async getVersioned(key: string, range: ByteRange | undefined, options?: VersionedReadOptions): Promise<VersionedBytes | undefined> {
    const kind = range !== undefined && "suffixLength" in range ? "index" : "data";
    if (key === SHARD) this.onRead?.(kind);
    const value = this.map.get(key);
    if (value === undefined) return undefined;
    const version = this.versions.get(key) ?? 0;
    const entry: Seen = { kind, version, ifVersion: options?.ifVersion };
    if (key === SHARD) this.seen.push(entry);
    if (options?.ifVersion !== undefined && options.ifVersion !== `v${version}`) {
      entry.failed = true;
      throw storeChanged(key, options.ifVersion, `v${version}`);
    }
    const [from, to] = range === undefined ? [0, value.length] : resolveByteRange(range, value.length);
    return { bytes: value.slice(from, to), version: `v${version}` };
  }
}

/** Version A: element i is i. Version B: inner chunk 0 is all fill (so empty), the rest i + 100: every inner chunk after it moved. */
const A = Int32Array.from({ length: 16 }, (_, i) => i);
const B = Int32Array.from({ length: 16 }, (_, i) => (i < 4 ? 0 : i + 100));
let shardA: Uint8Array;
let shardB: Uint8Array;
let metadata: Uint8Array;

/** Writes `data` to a fresh one-shard array [16] with inner chunks [4]; the store holds it. */
async function writeShard(data: Int32Array): Promise<MemoryStore> {
  const store = new MemoryStore();
  const arr = await createArray(store, "a", {
    shape: [16],
    dataType: "int32",
    chunkShape: [16],
    registry: registryWith(),
    codecs: [{ name: "sharding_indexed", configuration: { chunk_shape: [4], codecs: [BYTES], index_location: "end" } }],
  });
  await set(arr, null, data);
  return store;
}

beforeAll(async () => {
  const a = await writeShard(A);
  shardA = a.map.get(SHARD) as Uint8Array;
  metadata = a.map.get("a/zarr.json") as Uint8Array;
  shardB = (await writeShard(B)).map.get(SHARD) as Uint8Array;
  expect(shardB.length).toBeLessThan(shardA.length); // B's inner chunks really moved
});

function storeWithA(): VersionedStore {
  const store = new VersionedStore();
  store.map.set("a/zarr.json", metadata);
  store.replace(SHARD, shardA);
  return store;
}

const elements = async (store: MemoryStore, from: number, to: number) => {
  const arr = await openArray(store, "a", { registry: registryWith() });
  return Array.from((await get(arr, [slice(from, to)])).data as Int32Array);
};

describe("versioned partial reads of a shard", () => {
  it("a rewrite between the index read and the inner chunk read gives the new data, after one more index read", async () => {
    const store = storeWithA();
    let swapped = false;
    store.onRead = (kind) => {
      if (kind === "data" && !swapped) {
        swapped = true;
        store.replace(SHARD, shardB);
      }
    };
    expect(await elements(store, 4, 8)).toEqual(Array.from(B.subarray(4, 8)));
    expect(store.seen.map((s) => `${s.kind}@${s.version}${s.failed ? " changed" : ""}`)).toEqual([
      "index@1",
      "data@2 changed",
      "index@2",
      "data@2",
    ]);
    expect(store.seen[1].ifVersion).toBe("v1"); // the inner read asked for the index's version
  });

  it("control: without versioned reads a rewrite behind a cached index returns another inner chunk's bytes", async () => {
    // Shows the hazard the versions prevent (the store below is the one above, minus getVersioned).
    const store = storeWithA();
    const plain = Object.create(store) as MemoryStore;
    Object.defineProperty(plain, "getVersioned", { value: undefined });
    const arr = await openArray(plain, "a", { registry: registryWith() });
    expect(Array.from((await get(arr, [slice(0, 4)])).data as Int32Array)).toEqual([0, 1, 2, 3]);
    store.replace(SHARD, shardB);
    const got = Array.from((await get(arr, [slice(4, 8)])).data as Int32Array);
    expect(got).toEqual(Array.from(B.subarray(8, 12))); // inner chunk 2 of B, at A's offset of inner chunk 1
  });

  it("a cached index whose shard changed is dropped and read again", async () => {
    const store = storeWithA();
    const arr = await openArray(store, "a", { registry: registryWith() });
    expect(Array.from((await get(arr, [slice(4, 8)])).data as Int32Array)).toEqual([4, 5, 6, 7]);
    expect(Array.from((await get(arr, [slice(8, 12)])).data as Int32Array)).toEqual([8, 9, 10, 11]);
    expect(store.seen.filter((s) => s.kind === "index")).toHaveLength(1); // the index is cached
    store.replace(SHARD, shardB);
    store.seen.length = 0;
    expect(Array.from((await get(arr, [slice(8, 12)])).data as Int32Array)).toEqual(Array.from(B.subarray(8, 12)));
    expect(store.seen.map((s) => `${s.kind}${s.failed ? " changed" : ""}`)).toEqual(["data changed", "index", "data"]);
    store.seen.length = 0;
    expect(Array.from((await get(arr, [slice(12, 16)])).data as Int32Array)).toEqual(Array.from(B.subarray(12, 16)));
    expect(store.seen.map((s) => s.kind)).toEqual(["data"]); // the new index is cached
  });

  it("a shard that changes on every read fails with STORE_CHANGED after 3 retries", async () => {
    const store = storeWithA();
    let flip = false;
    store.onRead = (kind) => {
      if (kind !== "data") return;
      flip = !flip;
      store.replace(SHARD, flip ? shardB : shardA);
    };
    const error = await elements(store, 4, 8).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ZarrError);
    expect((error as ZarrError).code).toBe("STORE_CHANGED");
    expect((error as ZarrError).message).toContain(`Shard "${SHARD}" changed 4 times`);
    expect(store.seen.filter((s) => s.kind === "index")).toHaveLength(4);
    expect(store.seen.every((s) => s.kind === "index" || s.failed)).toBe(true);
  });

  it("a shard deleted behind a versioned index reads as missing (fill value)", async () => {
    const store = storeWithA();
    store.onRead = (kind) => {
      if (kind === "data") store.map.delete(SHARD);
    };
    expect(await elements(store, 4, 8)).toEqual([0, 0, 0, 0]);
  });

  it("a partial write whose shard is replaced while it reads the kept inner chunks starts again from the new shard", async () => {
    const store = storeWithA();
    let swapped = false;
    store.onRead = (kind) => {
      if (kind === "data" && !swapped) {
        swapped = true;
        store.replace(SHARD, shardB);
      }
    };
    const arr = await openArray(store, "a", { registry: registryWith() });
    await set(arr, [slice(5, 6)], Int32Array.of(-1));
    const expected = Array.from(B);
    expected[5] = -1;
    store.onRead = undefined;
    expect(Array.from((await get(arr, null)).data as Int32Array)).toEqual(expected);
    expect(store.seen.filter((s) => s.failed)).toHaveLength(1);
  });

  it("reads with a version that does not change cost no extra requests", async () => {
    const store = storeWithA();
    const arr = await openArray(store, "a", { registry: registryWith() });
    await get(arr, [slice(0, 4)]);
    await get(arr, [slice(4, 8)]);
    await get(arr, [slice(12, 16)]);
    expect(store.seen.map((s) => s.kind)).toEqual(["index", "data", "data", "data"]);
    expect(store.seen.slice(1).every((s) => s.ifVersion === "v1" && !s.failed)).toBe(true);
  });
});
