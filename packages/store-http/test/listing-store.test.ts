/** ListingObjectStore: deletePrefix and list built on a store's own listPrefix and delete. */
import { type StoreRequestOptions, ZarrError } from "@zarr/spec";
import { describe, expect, it } from "vitest";
import { ListingObjectStore } from "../src/index.js";

/** A bucket of `keys` that records its deletes and how many run at once. */
class Bucket extends ListingObjectStore {
  readonly keys: Set<string>;
  readonly deleted: string[] = [];
  inFlight = 0;
  mostInFlight = 0;
  signals: (AbortSignal | undefined)[] = [];

  constructor(
    keys: string[],
    readonly readOnly = false,
  ) {
    super();
    this.keys = new Set(keys);
  }

  async *listPrefix(prefix: string, options?: StoreRequestOptions): AsyncIterable<string> {
    this.signals.push(options?.signal);
    for (const key of [...this.keys].sort()) if (key.startsWith(prefix)) yield key;
  }

  async delete(key: string): Promise<void> {
    this.inFlight++;
    this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
    await new Promise((resolve) => setTimeout(resolve, 1));
    this.keys.delete(key);
    this.deleted.push(key);
    this.inFlight--;
  }

  protected assertWritable(key: string): void {
    if (this.readOnly) throw new ZarrError("STORE_READ_ONLY", `Cannot modify ${JSON.stringify(key)}: read-only`, { key });
  }
}

const collect = async (keys: AsyncIterable<string>) => {
  const out: string[] = [];
  for await (const key of keys) out.push(key);
  return out;
};

describe("ListingObjectStore", () => {
  it("list is every key, from listPrefix('') with the caller's signal", async () => {
    const bucket = new Bucket(["b", "a/zarr.json", "a/c/0"]);
    const signal = new AbortController().signal;
    expect(await collect(bucket.list({ signal }))).toEqual(["a/c/0", "a/zarr.json", "b"]);
    expect(bucket.signals).toEqual([signal]);
  });

  it("deletePrefix deletes exactly the keys under the prefix, at most 8 at a time", async () => {
    const under = Array.from({ length: 30 }, (_, i) => `a/c/${i}`);
    const bucket = new Bucket([...under, "a/zarr.json", "ab", "b/zarr.json"]);
    await bucket.deletePrefix("a/");
    expect([...bucket.keys].sort()).toEqual(["ab", "b/zarr.json"]);
    expect(bucket.deleted.length).toBe(31);
    expect(bucket.mostInFlight).toBe(8);
  });

  it("deletePrefix('') empties the store; a prefix with nothing under it deletes nothing", async () => {
    const bucket = new Bucket(["a", "b/c"]);
    await bucket.deletePrefix("z/");
    expect(bucket.deleted).toEqual([]);
    await bucket.deletePrefix("");
    expect(bucket.keys.size).toBe(0);
  });

  it("deletePrefix refuses a read-only store with STORE_READ_ONLY before listing anything", async () => {
    const bucket = new Bucket(["a/0"], true);
    await expect(bucket.deletePrefix("a/")).rejects.toMatchObject({ code: "STORE_READ_ONLY", key: "a/" });
    expect(bucket.signals).toEqual([]);
    expect(bucket.keys.size).toBe(1);
  });

  it("deletePrefix refuses a prefix that does not end in / with KEY_INVALID, deleting nothing", async () => {
    const bucket = new Bucket(["a/0", "ab"]);
    await expect(bucket.deletePrefix("a")).rejects.toMatchObject({ code: "KEY_INVALID", key: "a" });
    expect(bucket.keys.size).toBe(2);
  });
});
