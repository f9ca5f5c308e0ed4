/**
 * Corrupt shards fail fast with a ZarrError naming the shard key (and the inner chunk),
 * on every read path: range reads, whole-shard reads, and `decode`.
 */
import { crc32c } from "@zarr/codec-crc32c";
import {
  createArray,
  type JsonObject,
  get,
  MemoryStore,
  openArray,
  type Selection,
  set,
  ZarrError,
} from "@zarr/core";
import { describe, expect, it } from "vitest";
import { registryWith, storeWithoutRanges } from "./helpers.js";

const KEY = "a/c/0";
const INDEX_BYTES = 4 * 16 + 4;

/** An [8] int32 array in one shard of 4 inner chunks of [2] (8 bytes each, 32 bytes in all). */
async function healthyShard(location: "start" | "end", codecs?: JsonObject[]) {
  const store = new MemoryStore();
  const registry = registryWith();
  const arr = await createArray(store, "a", {
    shape: [8],
    dataType: "int32",
    chunkShape: [8],
    registry,
    codecs: [
      {
        name: "sharding_indexed",
        configuration: {
          chunk_shape: [2],
          codecs: codecs ?? [{ name: "bytes", configuration: { endian: "little" } }],
          index_location: location,
        },
      },
    ],
  });
  await set(arr, null, new Int32Array([1, 2, 3, 4, 5, 6, 7, 8]));
  return { store, registry, shard: store.map.get(KEY)!.slice() };
}

/** Rewrites the index entries of a shard and (unless told otherwise) its checksum. */
function withEntries(
  shard: Uint8Array,
  location: "start" | "end",
  mutate: (entries: bigint[]) => void,
  fixChecksum = true,
): Uint8Array {
  const out = shard.slice();
  const at = location === "end" ? out.length - INDEX_BYTES : 0;
  const view = new DataView(out.buffer, at, INDEX_BYTES);
  const entries = Array.from({ length: 8 }, (_, i) => view.getBigUint64(8 * i, true));
  mutate(entries);
  for (let i = 0; i < 8; i++) view.setBigUint64(8 * i, entries[i], true);
  if (fixChecksum) view.setUint32(64, crc32c(out.subarray(at, at + 64)), true);
  return out;
}

/** Every read path over a store holding `shard`: resolves the error each one throws. */
async function errorsOf(shard: Uint8Array, selection: Selection, location: "start" | "end"): Promise<ZarrError[]> {
  const { store, registry } = await healthyShard(location);
  store.map.set(KEY, shard);
  const errors: ZarrError[] = [];
  const capture = async (p: Promise<unknown>) => {
    const started = performance.now();
    try {
      await p;
      errors.push(new ZarrError("UNSUPPORTED", "no error was thrown"));
    } catch (error) {
      expect(error).toBeInstanceOf(ZarrError);
      errors.push(error as ZarrError);
    }
    expect(performance.now() - started).toBeLessThan(1000);
  };
  const ranged = await openArray(store, "a", { registry });
  await capture(get(ranged, selection));
  // Again: the second read may use a cached index and must fail the same way.
  await capture(get(ranged, selection));
  const whole = await openArray(storeWithoutRanges(store), "a", { registry });
  await capture(get(whole, selection));
  await capture(ranged.codecs.decode(shard, ranged.chunkSpec([0]), { key: KEY }));
  return errors;
}

function expectAll(errors: ZarrError[], code: string, ...patterns: RegExp[]) {
  expect(errors.length).toBeGreaterThan(0);
  for (const e of errors) {
    expect(e.code, e.message).toBe(code);
    expect(e.key).toBe(KEY);
    expect(e.message).toContain(`"${KEY}"`);
    for (const p of patterns) expect(e.message).toMatch(p);
  }
}

describe("corrupt shards", () => {
  it("the healthy shard reads fine on every path", async () => {
    const { shard } = await healthyShard("end");
    expect(shard.length).toBe(32 + INDEX_BYTES);
    const errors = await errorsOf(shard, [[7]], "end");
    expect(errors.map((e) => e.code)).toEqual(["UNSUPPORTED", "UNSUPPORTED", "UNSUPPORTED", "UNSUPPORTED"]);
  });

  for (const location of ["start", "end"] as const) {
    it(`an inner chunk past the end (index at the ${location})`, async () => {
      const { shard } = await healthyShard(location);
      const bad = withEntries(shard, location, (e) => {
        e[6] = 1000n;
      });
      for (const selection of [[[7]], [null]] as Selection[]) {
        expectAll(await errorsOf(bad, selection, location), "CODEC_FAILED", /inner chunk \[3\]/, /past the end/);
      }
    });

    it(`a truncated shard (index at the ${location})`, async () => {
      const { shard } = await healthyShard(location);
      expectAll(await errorsOf(shard.subarray(0, 40), [[1]], location), "CODEC_FAILED", /too short/);
    });

    it(`a wrong index checksum (index at the ${location})`, async () => {
      const { shard } = await healthyShard(location);
      const bad = withEntries(shard, location, (e) => {
        e[1] = 9n;
      }, false);
      expectAll(await errorsOf(bad, [[0]], location), "CHECKSUM_MISMATCH", /index/);
    });

    it(`absurd sizes and half-empty entries (index at the ${location})`, async () => {
      const { shard } = await healthyShard(location);
      const cases: [number, bigint][] = [
        [3, 2n ** 60n], // nbytes
        [2, 2n ** 63n], // offset
        [3, 2n ** 40n], // more than maxInnerChunkBytes
        [2, 0xffff_ffff_ffff_ffffn], // offset says empty, nbytes does not
      ];
      for (const [slot, value] of cases) {
        const bad = withEntries(shard, location, (e) => {
          e[slot] = value;
        });
        expectAll(await errorsOf(bad, [[3]], location), "CODEC_FAILED", /inner chunk \[1\]/);
      }
    });
  }

  it("an inner chunk overlapping the index at the end", async () => {
    const { shard } = await healthyShard("end");
    const bad = withEntries(shard, "end", (e) => {
      e[7] = 16n; // inner chunk 3: bytes 24–40, but the index starts at 32
    });
    for (const selection of [[[7]], [[0]], [null]] as Selection[]) {
      expectAll(await errorsOf(bad, selection, "end"), "CODEC_FAILED", /overlap/);
    }
  });

  it("an inner chunk overlapping the index at the start", async () => {
    const { shard } = await healthyShard("start");
    const bad = withEntries(shard, "start", (e) => {
      e[4] = 10n;
    });
    expectAll(await errorsOf(bad, [[4]], "start"), "CODEC_FAILED", /inner chunk \[2\]/, /overlap/);
  });

  it("an undecodable inner chunk names the shard and the inner chunk", async () => {
    const codecs: JsonObject[] = [
      { name: "bytes", configuration: { endian: "little" } },
      { name: "gzip", configuration: { level: 1 } },
    ];
    const { store, registry, shard } = await healthyShard("end", codecs);
    const bad = shard.slice();
    bad.fill(0x55, 0, 10); // the first inner chunk's gzip header
    store.map.set(KEY, bad);
    const arr = await openArray(store, "a", { registry });
    const error = await get(arr, [0]).catch((e) => e);
    expect(error).toBeInstanceOf(ZarrError);
    expect(error.code).toBe("CODEC_FAILED");
    expect(error.key).toBe(KEY);
    expect(error.message).toContain("inner chunk [0]");
    // The other inner chunks still read.
    expect((await get(arr, [5])).data[0]).toBe(6);
  });
});
