/** Shared test helpers: registries, fixture loading, counting stores and sources. */
import { fixturesDir } from "../../../scripts/test-env.mjs";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { crc32cCodec } from "@zarr/codec-crc32c";
import { gzip } from "@zarr/codec-gzip";
import {
  type ByteRange,
  type ByteSource,
  type CodecEntry,
  createRegistry,
  MemoryStore,
  type Registry,
  type StoreRequestOptions,
} from "@zarr/core";
import { createShardingEntry, type ShardingOptions, shardingIndexed } from "../src/index.js";

/** Root of the shared zarr-python fixtures. */
export const FIXTURES = join(fixturesDir(), "zarr-python");

/** A registry with sharding (default or tuned), crc32c, gzip and any extra entries. */
export function registryWith(extra: CodecEntry[] = [], options?: ShardingOptions): Registry {
  const sharding = options === undefined ? shardingIndexed : createShardingEntry(options);
  return createRegistry([sharding, crc32cCodec, gzip, ...extra]);
}

/** Loads every file under `dir` into a MemoryStore (keys relative to `dir`). */
export function loadDirectory(dir: string): MemoryStore {
  const store = new MemoryStore();
  const walk = (abs: string, rel: string) => {
    for (const name of readdirSync(abs)) {
      const a = join(abs, name);
      const r = rel === "" ? name : `${rel}/${name}`;
      if (statSync(a).isDirectory()) walk(a, r);
      else store.map.set(r, new Uint8Array(readFileSync(a)));
    }
  };
  walk(dir, "");
  return store;
}

/** One request a counting store saw. */
export interface RequestLog {
  method: "get" | "getRange";
  key: string;
  range?: ByteRange;
}

/** A MemoryStore that records every read (and can pretend to have no range reads). */
export class CountingStore extends MemoryStore {
  readonly log: RequestLog[] = [];
  /** Only count reads of keys containing this (e.g. "/c/" for chunks). */
  constructor(private readonly filter = "/c") {
    super();
  }
  override async get(key: string, options?: StoreRequestOptions): Promise<Uint8Array | undefined> {
    if (key.includes(this.filter)) this.log.push({ method: "get", key });
    return super.get(key, options);
  }
  override async getRange(key: string, range: ByteRange, options?: StoreRequestOptions): Promise<Uint8Array | undefined> {
    if (key.includes(this.filter)) this.log.push({ method: "getRange", key, range });
    return super.getRange(key, range, options);
  }
  reset(): void {
    this.log.length = 0;
  }
}

/** A view of `store` sharing its data but without `getRange` (like a store that cannot read byte ranges). */
export function storeWithoutRanges(store: MemoryStore): MemoryStore {
  const view = Object.create(store) as MemoryStore;
  Object.defineProperty(view, "getRange", { value: undefined });
  return view;
}

/** A ByteSource over `bytes` that records the ranges asked for. */
export function countingSource(
  bytes: Uint8Array | undefined,
  rangesAreCheap = true,
): ByteSource & { requests: (ByteRange | undefined)[] } {
  const requests: (ByteRange | undefined)[] = [];
  return {
    rangesAreCheap,
    requests,
    async get(range?: ByteRange) {
      requests.push(range);
      if (bytes === undefined) return undefined;
      if (range === undefined) return bytes;
      if ("suffixLength" in range) return bytes.subarray(Math.max(0, bytes.length - range.suffixLength));
      return bytes.subarray(range.offset, range.length === undefined ? undefined : range.offset + range.length);
    },
  };
}

/** Reads the (offset, nbytes) pairs of a shard whose index (bytes + crc32c) is at the end or start. */
export function readIndex(shard: Uint8Array, count: number, location: "start" | "end" = "end", crc = true): bigint[] {
  const size = 16 * count + (crc ? 4 : 0);
  const at = location === "end" ? shard.length - size : 0;
  const view = new DataView(shard.buffer, shard.byteOffset + at, 16 * count);
  const out: bigint[] = [];
  for (let i = 0; i < 2 * count; i++) out.push(view.getBigUint64(8 * i, true));
  return out;
}

export const EMPTY_U64 = 0xffff_ffff_ffff_ffffn;
