/** bloscCompress / bloscDecompress: round trips, memcpyed chunks, corrupt input. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type BloscCname, type BloscShuffle, bloscCompress, bloscDecompress, CNAMES, readBloscHeader } from "../src/index.js";
import { b64, expectCodecFailed, makeData, python, sameBytes, sha, unb64 } from "./helpers.js";

const options = fc.record({
  cname: fc.constantFrom(...CNAMES),
  clevel: fc.integer({ min: 0, max: 9 }),
  shuffle: fc.constantFrom<BloscShuffle>("noshuffle", "shuffle", "bitshuffle", -1),
  typesize: fc.oneof(fc.constantFrom(1, 2, 4, 8), fc.integer({ min: 1, max: 300 })),
  blocksize: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 70_000 })),
});

function randomBytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let s = seed >>> 0 || 7;
  for (let i = 0; i < n; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    out[i] = s;
  }
  return out;
}

describe("round trips", () => {
  it("any options, any data", () => {
    fc.assert(
      fc.property(
        options,
        fc.oneof(
          fc.uint8Array({ maxLength: 2000 }),
          fc.record({ n: fc.integer({ min: 0, max: 60_000 }), seed: fc.integer() }).map(({ n, seed }) => makeData(n, seed)),
        ),
        (opts, data) => {
          const chunk = bloscCompress(data, opts);
          const h = readBloscHeader(chunk);
          expect(h.nbytes).toBe(data.length);
          expect(h.cbytes).toBe(chunk.length);
          expect(chunk.length).toBeLessThanOrEqual(data.length + 16);
          expect(sameBytes(bloscDecompress(chunk, "k"), data)).toBe("equal");
        },
      ),
      { numRuns: 100 },
    );
  });

  it("compresses compressible data with every compressor", () => {
    const f = new Float32Array(50_000);
    for (let i = 0; i < f.length; i++) f[i] = 280 + Math.sin(i / 500) * 10;
    const data = new Uint8Array(f.buffer);
    for (const cname of CNAMES) {
      for (const shuffle of ["shuffle", "bitshuffle"] as const) {
        const chunk = bloscCompress(data, { cname, clevel: 5, shuffle, typesize: 4 });
        expect(readBloscHeader(chunk).memcpyed).toBe(false);
        expect(chunk.length, `${cname} ${shuffle}`).toBeLessThan(data.length * 0.7);
        expect(sameBytes(bloscDecompress(chunk), data)).toBe("equal");
      }
    }
  });
});

describe("memcpyed chunks", () => {
  it("clevel 0, inputs under 128 bytes and incompressible data are stored as is", () => {
    const random = randomBytes(100_000, 3);
    for (const [data, clevel] of [
      [makeData(50_000, 1), 0],
      [makeData(127, 1), 9],
      [random, 9],
    ] as const) {
      const chunk = bloscCompress(data, { cname: "lz4", clevel, shuffle: "shuffle", typesize: 4 });
      const h = readBloscHeader(chunk);
      expect(h.memcpyed).toBe(true);
      expect(h.cbytes).toBe(data.length + 16);
      expect(sameBytes(chunk.subarray(16), data)).toBe("equal");
      expect(sameBytes(bloscDecompress(chunk), data)).toBe("equal");
    }
  });

  it("interop: numcodecs' memcpyed chunks decode here and ours decode there", () => {
    const random = randomBytes(70_000, 11);
    const theirs = python<string[]>(
      `import sys, json, base64, numpy as np
from numcodecs.blosc import Blosc
data = base64.b64decode(json.load(sys.stdin))
arr = np.frombuffer(data, dtype='<f4')
print(json.dumps([base64.b64encode(Blosc(c, l, 1, 0).encode(arr)).decode() for c, l in [('zstd', 0), ('lz4', 5), ('blosclz', 9)]]))`,
      b64(random),
    );
    for (const t of theirs) {
      const chunk = unb64(t);
      expect(readBloscHeader(chunk).memcpyed).toBe(true);
      expect(sameBytes(bloscDecompress(chunk), random)).toBe("equal");
    }
    const ours = (["zstd", "lz4", "blosclz"] as BloscCname[]).map((cname) =>
      bloscCompress(random, { cname, clevel: cname === "zstd" ? 0 : 5, shuffle: 1, typesize: 4 }),
    );
    for (const c of ours) expect(readBloscHeader(c).memcpyed).toBe(true);
    const hashes = python<string[]>(
      `import sys, json, base64, hashlib
from numcodecs import blosc
print(json.dumps([hashlib.sha256(blosc.decompress(base64.b64decode(c))).hexdigest() for c in json.load(sys.stdin)]))`,
      ours.map(b64),
    );
    expect(hashes).toEqual(ours.map(() => sha(random)));
  });
});

/**
 * A valid lz4 chunk: 4 blocks of 4 streams and a 100-byte leftover block. (c-blosc
 * multiplies a requested block size by the typesize for splitting compressors and
 * makes it at least 64 KiB.)
 */
function validChunk(): Uint8Array {
  return bloscCompress(makeData(4 * 65_536 + 100, 5), { cname: "lz4", clevel: 5, shuffle: "shuffle", typesize: 4, blocksize: 4096 });
}

function setU32(chunk: Uint8Array, at: number, v: number): Uint8Array {
  const c = chunk.slice();
  new DataView(c.buffer).setUint32(at, v, true);
  return c;
}

describe("corrupt input", () => {
  it("rejects bad headers quickly, naming the key", () => {
    const good = validChunk();
    expect(readBloscHeader(good).blocksize).toBe(65_536);
    expect(readBloscHeader(good).dontSplit).toBe(false);
    const key = "temp/c/1/2";
    expectCodecFailed(() => bloscDecompress(good.subarray(0, 15), key), key);
    // Absurd sizes: 2^31 − 1 or more decoded bytes from a small chunk are refused before any
    // output is allocated (memory, not time: a timed check fails on a loaded machine).
    const buffersBefore = process.memoryUsage().arrayBuffers;
    expectCodecFailed(() => bloscDecompress(setU32(good, 4, 0x7fffffff), key), key);
    expectCodecFailed(() => bloscDecompress(setU32(good, 4, 0xffffffff), key), key);
    expect(process.memoryUsage().arrayBuffers - buffersBefore).toBeLessThan(64 * 1024 * 1024);
    // Version, compressor, typesize, block size.
    const v3 = good.slice();
    v3[0] = 3;
    expectCodecFailed(() => bloscDecompress(v3, key), key);
    const comp = good.slice();
    comp[2] = (comp[2] & 0x1f) | (6 << 5);
    expectCodecFailed(() => bloscDecompress(comp, key), key);
    const ts0 = good.slice();
    ts0[3] = 0;
    expectCodecFailed(() => bloscDecompress(ts0, key), key);
    expectCodecFailed(() => bloscDecompress(setU32(good, 8, 0), key), key);
    // cbytes beyond the input, or smaller than a header.
    expectCodecFailed(() => bloscDecompress(setU32(good, 12, good.length + 1), key), key);
    expectCodecFailed(() => bloscDecompress(setU32(good, 12, 10), key), key);
    // A memcpyed chunk whose data is cut short.
    const mem = bloscCompress(makeData(1000, 2), { clevel: 0 });
    expectCodecFailed(() => bloscDecompress(mem.subarray(0, 900), key), key);
  });

  it("rejects block offsets and stream sizes beyond the end", () => {
    const good = validChunk();
    const key = "k";
    expectCodecFailed(() => bloscDecompress(setU32(good, 16, good.length), key), key);
    expectCodecFailed(() => bloscDecompress(setU32(good, 20, 3), key), key);
    const firstStream = new DataView(good.buffer).getUint32(16, true);
    expectCodecFailed(() => bloscDecompress(setU32(good, firstStream, 1 << 30), key), key);
    expectCodecFailed(() => bloscDecompress(setU32(good, firstStream, 0xfffffff0), key), key);
    // Truncated: the header still claims the full size.
    expectCodecFailed(() => bloscDecompress(good.subarray(0, good.length - 10), key), key);
    // Truncated with a consistent header.
    expectCodecFailed(() => bloscDecompress(setU32(good.subarray(0, good.length - 10), 12, good.length - 10), key), key);
  });

  it("mutated chunks of every compressor decode or throw CODEC_FAILED, never anything else", () => {
    const data = makeData(6000, 8);
    const chunks = CNAMES.flatMap((cname) =>
      (["shuffle", "bitshuffle", "noshuffle"] as const).map((shuffle) =>
        bloscCompress(data, { cname, clevel: 5, shuffle, typesize: 4, blocksize: 2048 }),
      ),
    );
    fc.assert(
      fc.property(
        fc.nat(chunks.length - 1),
        fc.array(fc.record({ at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }), { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        (which, edits, keepHeaderSize) => {
          const chunk = chunks[which].slice();
          for (const { at, value } of edits) chunk[at % chunk.length] = value;
          if (keepHeaderSize) new DataView(chunk.buffer).setUint32(12, chunk.length, true);
          try {
            const out = bloscDecompress(chunk, "fuzz");
            expect(out.length).toBeLessThanOrEqual(0x7fffffff);
          } catch (error) {
            expect((error as { code?: string }).code).toBe("CODEC_FAILED");
            expect((error as Error).message).toContain("fuzz");
          }
        },
      ),
      { numRuns: 1500 },
    );
  });
});

describe("bloscCompress arguments", () => {
  it("rejects bad options with INVALID_ARGUMENT", () => {
    const data = new Uint8Array(10);
    for (const bad of [
      { clevel: 10 },
      { clevel: 1.5 },
      { typesize: 0 },
      { blocksize: -1 },
      { cname: "lzma" as BloscCname },
      { shuffle: 3 as BloscShuffle },
    ]) {
      expect(() => bloscCompress(data, bad)).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    }
  });

  it("typesize above 255 is treated as 1, as in c-blosc", () => {
    const chunk = bloscCompress(makeData(10_000, 1), { typesize: 300, shuffle: "shuffle" });
    expect(readBloscHeader(chunk).typesize).toBe(1);
  });
});
