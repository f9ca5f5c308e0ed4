/**
 * Bounded decoding and bounded allocation from metadata: what the pipeline tells every
 * bytes→bytes codec about the most it may decode to (`CodecCallContext.maxDecodedBytes`),
 * the check after the fact for codecs that ignore it, and the `maxChunkBytes` limit on
 * chunk shapes and struct elements, checked before anything is allocated.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import {
  type BytesToBytesCodec,
  type CodecEntry,
  createArray,
  createRegistry,
  DEFAULT_MAX_CHUNK_BYTES,
  get,
  MemoryStore,
  openArray,
  set,
  ZarrError,
} from "../src/index.js";
import { DECODE_RATIO_FLOOR } from "../src/limits.js";

/** Calls seen by the recording codec: the bound it was given. */
const seen: (number | undefined)[] = [];

/** A bytes→bytes codec that decodes to its input plus `extra` bytes, ignoring any bound. */
function growEntry(name: string, extra: number, fixedSize: boolean): CodecEntry {
  return {
    type: "codec",
    name,
    codecKind: "bytes_to_bytes",
    fromConfig: (): BytesToBytesCodec => ({
      kind: "bytes_to_bytes",
      name,
      encode: (b) => b,
      decode: (b, ctx) => {
        seen.push(ctx.maxDecodedBytes);
        const out = new Uint8Array(b.length + extra);
        out.set(b);
        return out;
      },
      computeEncodedSize: fixedSize ? (n) => n : undefined,
      toJSON: () => ({ name, configuration: {} }),
    }),
  };
}

const registry = createRegistry([growEntry("record", 0, true), growEntry("record-var", 0, false), growEntry("grow", 1, true)]);

async function arrayWith(codecs: string[], options: { maxChunkBytes?: number; maxDecodeRatio?: number; dataType?: string; chunkShape?: number[] } = {}) {
  const store = new MemoryStore();
  const arr = await createArray(store, "a", {
    shape: [8, 8],
    chunkShape: options.chunkShape ?? [4, 8],
    dataType: options.dataType ?? "int16",
    codecs: [{ name: "bytes", configuration: { endian: "little" } }, ...codecs.map((name) => ({ name }))],
    registry,
  });
  await set(arr, null, 7);
  return openArray(store, "a", { registry, maxChunkBytes: options.maxChunkBytes, maxDecodeRatio: options.maxDecodeRatio });
}

describe("the decoded-size bound the pipeline passes to bytes→bytes codecs", () => {
  it("is the decoded chunk's size, carried through the fixed sizes of the codecs before", async () => {
    seen.length = 0;
    const arr = await arrayWith(["record", "record-var"]);
    expect(Array.from((await get(arr, null)).data as Int16Array).every((v) => v === 7)).toBe(true);
    // Decoding runs backwards: record-var decodes to what record encoded (4×8 int16 = 64
    // bytes, record's size is fixed), then record decodes to the chunk (64 bytes).
    expect(seen).toEqual([64, 64, 64, 64]);
  });

  it("is maxChunkBytes where a codec before it has no fixed size", async () => {
    seen.length = 0;
    const arr = await arrayWith(["record-var", "record"], { maxChunkBytes: 1000 });
    await get(arr, null);
    // record decodes to what record-var produced (size unknown): the array's maxChunkBytes.
    // Chunks decode concurrently: compare in order of size.
    expect(seen.sort((x, y) => (x as number) - (y as number))).toEqual([64, 64, 1000, 1000]);
    seen.length = 0;
    await get(await arrayWith(["record-var", "record"]), null);
    // By default, maxDecodeRatio bounds it lower: the floor of 64 MiB for chunks this small.
    expect(seen.sort((x, y) => (x as number) - (y as number))).toEqual([64, 64, DECODE_RATIO_FLOOR, DECODE_RATIO_FLOOR]);
    seen.length = 0;
    await get(await arrayWith(["record-var", "record"], { maxDecodeRatio: Number.POSITIVE_INFINITY }), null);
    expect(seen.sort((x, y) => (x as number) - (y as number))).toEqual([64, 64, DEFAULT_MAX_CHUNK_BYTES, DEFAULT_MAX_CHUNK_BYTES]);
  });

  it("catches a codec that ignores it, after the fact, with CODEC_FAILED naming the chunk", async () => {
    const arr = await arrayWith(["grow"]);
    await expect(get(arr, null)).rejects.toMatchObject({
      code: "CODEC_FAILED",
      key: "a/c/0/0",
      message: expect.stringMatching(/grow: chunk "a\/c\/0\/0" would decode to 65 bytes, more than the 64 bytes/),
    });
  });
});

describe("maxChunkBytes", () => {
  it("reads a chunk of exactly maxChunkBytes and refuses one byte less, before reading it", async () => {
    // 4×8 int16 chunks: 64 bytes.
    expect(Array.from((await get(await arrayWith([], { maxChunkBytes: 64 }), [0, 0])).data as Int16Array)).toEqual([7]);
    const arr = await arrayWith([], { maxChunkBytes: 63 });
    await expect(get(arr, [0, 0])).rejects.toMatchObject({
      code: "UNSUPPORTED",
      key: "a/c/0/0",
      message: expect.stringMatching(/Chunk "a\/c\/0\/0" of shape \[4, 8\] takes 64 bytes decoded, more than maxChunkBytes \(63\)/),
    });
    await expect(set(arr, null, 1)).rejects.toMatchObject({ code: "UNSUPPORTED" });
  });

  it("must be a positive integer", async () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      await expect(arrayWith([], { maxChunkBytes: bad })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    }
  });

  it("refuses a huge chunk shape from metadata on read, without allocating it", async () => {
    const store = new MemoryStore();
    const doc = {
      zarr_format: 3,
      node_type: "array",
      shape: [1e6, 1e6],
      data_type: "float64",
      chunk_grid: { name: "regular", configuration: { chunk_shape: [1e6, 1e6] } },
      chunk_key_encoding: { name: "default" },
      fill_value: 0,
      codecs: [{ name: "bytes", configuration: { endian: "little" } }],
    };
    store.map.set("big/zarr.json", new TextEncoder().encode(JSON.stringify(doc)));
    store.map.set("big/c/0/0", new Uint8Array(16));
    const arr = await openArray(store, "big");
    const error = await get(arr, [0, 0]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ZarrError);
    expect(error).toMatchObject({ code: "UNSUPPORTED", message: expect.stringMatching(/8000000000000 bytes decoded, more than maxChunkBytes \(2147483648\)/) });
  });
});

/** A `zarr.json` for a struct array whose field `f` is an int8 sub-array of `count` elements. */
function structDoc(count: number): string {
  return JSON.stringify({
    zarr_format: 3,
    node_type: "array",
    shape: [1],
    data_type: { name: "struct", configuration: { fields: [{ name: "f", data_type: "int8", shape: [count] }] } },
    chunk_grid: { name: "regular", configuration: { chunk_shape: [1] } },
    chunk_key_encoding: { name: "default" },
    fill_value: {},
    codecs: [{ name: "bytes" }],
  });
}

describe("struct elements from metadata", () => {
  it("the 49-byte-style document with a [1000000000] int8 sub-array fails with UNSUPPORTED, in a small heap", () => {
    // In a child with a 256 MiB heap: materialising the sub-array would die with V8's
    // fatal "heap out of memory", which no test could catch.
    const script = `
      import { MemoryStore, openArray } from "@zarr/core";
      const store = new MemoryStore();
      store.map.set("s/zarr.json", new TextEncoder().encode(${JSON.stringify(structDoc(1e9))}));
      try { await openArray(store, "s"); console.log("opened"); }
      catch (e) { console.log(e.code, e.jsonPath, e.message); }
    `;
    const child = spawnSync(process.execPath, ["--max-old-space-size=256", "--input-type=module", "-e", script], {
      cwd: new URL("..", import.meta.url),
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(child.stderr).toBe("");
    expect(child.status).toBe(0);
    expect(child.stdout).toMatch(/^UNSUPPORTED \$\.data_type One element of the data type at \$\.data_type in "s\/zarr.json" takes about 8000000\d+ bytes/);
    expect(child.stdout).toMatch(/its field "f" holds 1000000000 elements/);
  });

  it("counts one memory slot per sub-array element against maxChunkBytes, at the boundary", async () => {
    const store = new MemoryStore();
    // 32 bytes for the element object, 32 for the sub-array, 8 per element: 64 + 8 × 100.
    store.map.set("s/zarr.json", new TextEncoder().encode(structDoc(100)));
    const ok = await openArray(store, "s", { maxChunkBytes: 864 });
    expect(((await get(ok, null)).data as unknown as { f: number[] }[])[0].f.length).toBe(100);
    await expect(openArray(store, "s", { maxChunkBytes: 863 })).rejects.toMatchObject({ code: "UNSUPPORTED", key: "s/zarr.json" });
  });
});
