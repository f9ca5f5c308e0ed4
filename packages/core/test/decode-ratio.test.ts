/**
 * `maxDecodeRatio`: where a chunk's decoded size is not fixed by its spec (variable-length
 * strings), a bytes→bytes codec may decode to at most `maxDecodeRatio` times the stored
 * bytes (and always to `DECODE_RATIO_FLOOR`), so a decompression bomb stops early instead
 * of after gigabytes. Chunks of fixed size keep their exact bound.
 */
import { brotliCompressSync, brotliDecompressSync, constants } from "node:zlib";
import { vlenUtf8 } from "@zarr/codec-vlen";
import { describe, expect, it } from "vitest";
import { type BytesToBytesCodec, type CodecEntry, createArray, createRegistry, get, MemoryStore, openArray, set, ZarrError } from "../src/index.js";
import { DECODE_RATIO_FLOOR, DEFAULT_MAX_DECODE_RATIO } from "../src/limits.js";

/** The bounds the test brotli codec was given, in call order. */
const bounds: (number | undefined)[] = [];

/** Brotli on node:zlib (it compresses zeros far past 1000:1, as zstd does), honouring the bound as a real decompressor does. */
const testBrotli: CodecEntry = {
  type: "codec",
  name: "test-brotli",
  codecKind: "bytes_to_bytes",
  fromConfig: (): BytesToBytesCodec => ({
    kind: "bytes_to_bytes",
    name: "test-brotli",
    encode: (b) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } }),
    decode: (b, ctx) => {
      bounds.push(ctx.maxDecodedBytes);
      try {
        return brotliDecompressSync(b, ctx.maxDecodedBytes === undefined ? {} : { maxOutputLength: ctx.maxDecodedBytes });
      } catch (error) {
        throw new ZarrError("CODEC_FAILED", `test-brotli: chunk "${ctx.key}": ${(error as Error).message}`, { key: ctx.key });
      }
    },
    toJSON: () => ({ name: "test-brotli", configuration: {} }),
  }),
};

const registry = createRegistry([vlenUtf8, testBrotli]);
const STRINGS = [{ name: "vlen-utf8" }, { name: "test-brotli" }];

/** A string array of `n` elements in one chunk. */
async function stringArray(n: number): Promise<{ store: MemoryStore }> {
  const store = new MemoryStore();
  await createArray(store, "s", { shape: [n], chunkShape: [n], dataType: "string", codecs: STRINGS, registry, fillValue: "" });
  return { store };
}

/** Stores `raw` (vlen-utf8 bytes) compressed as the only chunk of the string array "s". */
async function bomb(raw: Uint8Array, n = 10): Promise<MemoryStore> {
  const { store } = await stringArray(n);
  await store.set("s/c/0", brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } }));
  return store;
}

describe("maxDecodeRatio", () => {
  it("bounds a chunk of unknown decoded size by the floor, by ratio × stored bytes above it, and by maxChunkBytes", async () => {
    const { store } = await stringArray(4);
    const arr = await openArray(store, "s", { registry });
    await set(arr, null, ["a", "bb", "", "dddd"]);
    bounds.length = 0;
    await get(await openArray(store, "s", { registry }), null);
    expect(bounds).toEqual([DECODE_RATIO_FLOOR]);
    // 70 000 random stored bytes × 1000 is above the floor.
    const random = new Uint8Array(70_000).map(() => Math.floor(Math.random() * 256));
    await store.set("s/c/0", random);
    for (const [options, expected] of [
      [{}, 70_000 * DEFAULT_MAX_DECODE_RATIO],
      [{ maxDecodeRatio: 2000 }, 70_000 * 2000],
      [{ maxChunkBytes: 1_000_000 }, 1_000_000],
      [{ maxDecodeRatio: Number.POSITIVE_INFINITY, maxChunkBytes: 2 ** 40 }, 2 ** 40],
    ] as const) {
      bounds.length = 0;
      await get(await openArray(store, "s", { registry, ...options }), null).catch(() => undefined);
      expect(bounds, JSON.stringify(options)).toEqual([expected]);
    }
  });

  it("stops a 128 MiB brotli bomb of a string chunk at 64 MiB, with CODEC_FAILED naming the chunk and the option", async () => {
    const raw = new Uint8Array(128 * 2 ** 20);
    raw[0] = 10; // ten items, then zeros: vlen-utf8 would fail only after decoding it all
    const store = await bomb(raw);
    expect((await store.get("s/c/0"))?.length).toBeLessThan(100_000);
    const started = performance.now();
    const error = await get(await openArray(store, "s", { registry }), null).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ZarrError);
    expect(error).toMatchObject({ code: "CODEC_FAILED", key: "s/c/0", message: expect.stringMatching(/maxDecodeRatio 1000.*--max-ratio/) });
    expect((error as Error).message).toContain(`at most ${DECODE_RATIO_FLOOR} bytes`);
    // Decoding 64 MiB, not 128: well under the time of the whole (a shared CPU: generous).
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it("reads a legitimate chunk that compresses far past the ratio while it stays under the floor", async () => {
    const n = 500_000;
    const { store } = await stringArray(n);
    const arr = await openArray(store, "s", { registry });
    await set(arr, null, "");
    await set(arr, [0], "x");
    const stored = (await store.get("s/c/0")) as Uint8Array;
    // 4 + 4 × 500 000 bytes decoded from a few KB: a ratio above 1000.
    expect((4 + 4 * n) / stored.length).toBeGreaterThan(DEFAULT_MAX_DECODE_RATIO);
    const values = (await get(await openArray(store, "s", { registry }), null)).data as string[];
    expect(values[0]).toBe("x");
    expect(values[n - 1]).toBe("");
  });

  it("leaves chunks of fixed decoded size at their exact size, however well they compress", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "z", { shape: [2 ** 20], chunkShape: [2 ** 20], dataType: "float64", codecs: [{ name: "bytes" }, { name: "test-brotli" }], registry });
    await set(arr, null, 1);
    bounds.length = 0;
    const read = await get(await openArray(store, "z", { registry, maxDecodeRatio: 1 }), null);
    expect(bounds).toEqual([8 * 2 ** 20]);
    expect(read.data.length).toBe(2 ** 20);
  });

  it("must be a number of at least 1", async () => {
    const { store } = await stringArray(4);
    for (const bad of [0, 0.5, -1, Number.NaN]) {
      await expect(openArray(store, "s", { registry, maxDecodeRatio: bad })).rejects.toMatchObject({
        code: "INVALID_ARGUMENT",
        message: expect.stringContaining("maxDecodeRatio"),
      });
    }
    await expect(openArray(store, "s", { registry, maxDecodeRatio: 1 })).resolves.toBeDefined();
  });
});
