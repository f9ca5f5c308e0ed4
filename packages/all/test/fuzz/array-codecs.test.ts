/**
 * Fuzz properties of the array→bytes codecs through a whole read (see
 * scripts/codec-fuzz.mjs for the bytes→bytes ones; FUZZ_RUNS=… for more runs): a stored
 * chunk of random bytes, or a valid one truncated or bit-flipped, reads as values or fails
 * with a coded ZarrError, never anything else.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FUZZ_RUNS } from "../../../../scripts/codec-fuzz.mjs";
import { createArray, get, MemoryStore, set } from "../../src/index.js";

const CODES = new Set(["CODEC_FAILED", "CHECKSUM_MISMATCH", "UNSUPPORTED"]);
const params = { numRuns: FUZZ_RUNS, seed: 0x5eed };

const CHAINS = {
  "vlen-utf8": { dataType: "string", codecs: [{ name: "vlen-utf8" }], value: "zarr" },
  "vlen-bytes": { dataType: "bytes", codecs: [{ name: "vlen-bytes" }], value: new Uint8Array([1, 2, 3]) },
  sharding: {
    dataType: "uint16",
    codecs: [{ name: "sharding_indexed", configuration: { chunk_shape: [4], codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "zstd", configuration: { level: 1, checksum: false } }] } }],
    value: 7,
  },
  "bytes + crc32c": { dataType: "int32", codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "crc32c" }], value: 5 },
} as const;

/** Reads the array with `bytes` as its one chunk; throws unless it reads or fails with a coded ZarrError. */
async function readChecked(store: MemoryStore, arr: Awaited<ReturnType<typeof createArray>>, bytes: Uint8Array): Promise<void> {
  store.map.set("a/c/0", bytes);
  try {
    await get(arr, null);
  } catch (error) {
    const e = error as { name?: string; code?: string; stack?: string };
    if (e?.name !== "ZarrError" || !CODES.has(e.code as string)) throw new Error(`not a coded ZarrError: ${e?.stack ?? error}`);
  }
}

for (const [label, chain] of Object.entries(CHAINS)) {
  describe(label, async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "a", { shape: [16], chunkShape: [16], dataType: chain.dataType, codecs: chain.codecs as never });
    await set(arr, null, chain.value as never);
    const valid = (store.map.get("a/c/0") as Uint8Array).slice();

    it("a chunk of random bytes reads or fails with a coded error", async () => {
      await fc.assert(fc.asyncProperty(fc.uint8Array({ maxLength: 512 }), (b) => readChecked(store, arr, b)), params);
    });

    it("a truncated chunk reads or fails with a coded error", async () => {
      await fc.assert(fc.asyncProperty(fc.nat(valid.length - 1), (n) => readChecked(store, arr, valid.slice(0, n))), params);
    });

    it("a bit-flipped chunk reads or fails with a coded error", async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.nat(valid.length * 8 - 1), { minLength: 1, maxLength: 4 }), async (flips) => {
          const b = valid.slice();
          for (const f of flips) b[f >>> 3] ^= 1 << (f & 7);
          await readChecked(store, arr, b);
        }),
        params,
      );
    });

    it("the valid chunk reads back", async () => {
      store.map.set("a/c/0", valid.slice());
      expect((await get(arr, null)).data.length).toBe(16);
    });
  });
}
