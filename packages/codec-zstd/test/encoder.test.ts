/**
 * The TypeScript encoder against the reference decoder: everything zstdCompress writes
 * must decode with libzstd (numcodecs 0.11) and with our decoder to the original bytes.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { zstdCompress, zstdDecompress } from "../src/index.js";
import { libzstdDecode, rng, sameBytes, sampleArrays, ZSTD_CLI, zstdCli } from "./reference.js";

const LEVELS = [-5, 1, 3, 9, 19, 22];

interface Case {
  name: string;
  data: Uint8Array;
  frame: Uint8Array;
}

/** Checks every case with our decoder now and with libzstd in one batch. */
function verifyAll(cases: Case[]): void {
  for (const c of cases) {
    const back = zstdDecompress(c.frame);
    expect(sameBytes(back, c.data), `${c.name}: our decoder`).toBe(true);
  }
  // numcodecs 0.11 refuses empty content (it treats a content size of 0 as an error).
  const nonEmpty = cases.filter((c) => c.data.length > 0);
  const results = libzstdDecode(nonEmpty.map((c) => c.frame));
  results.forEach((r, i) => {
    const c = nonEmpty[i];
    if (!r.ok) throw new Error(`${c.name}: libzstd rejected our frame: ${r.error}`);
    expect(sameBytes(r.bytes, c.data), `${c.name}: libzstd output`).toBe(true);
  });
}

function highlyCompressible(length: number, seed: number): Uint8Array {
  const r = rng(seed);
  const out = new Uint8Array(length);
  const phrase = new TextEncoder().encode("the quick brown fox jumps over the lazy dog; ");
  for (let i = 0; i < length; i++) out[i] = r() < 0.01 ? Math.floor(r() * 256) : phrase[i % phrase.length];
  return out;
}

function randomBytes(length: number, seed: number): Uint8Array {
  const r = rng(seed);
  return Uint8Array.from({ length }, () => Math.floor(r() * 256));
}

describe("zstdCompress output decodes with libzstd and with zstdDecompress", () => {
  it("property: random, compressible and repetitive inputs at every sampled level, checksum on and off", () => {
    const cases: Case[] = [];
    const input = fc.oneof(
      fc.uint8Array({ maxLength: 3000 }),
      // Few distinct bytes: Huffman-friendly literals.
      fc.array(fc.constantFrom(0, 1, 2, 65, 66, 255), { maxLength: 4000 }).map((a) => Uint8Array.from(a)),
      // A random pattern repeated: long matches and repeat offsets.
      fc
        .tuple(fc.uint8Array({ minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 300 }))
        .map(([pattern, times]) => {
          const out = new Uint8Array(pattern.length * times);
          for (let i = 0; i < times; i++) out.set(pattern, i * pattern.length);
          return out;
        }),
    );
    fc.assert(
      fc.property(input, fc.constantFrom(...LEVELS), fc.boolean(), (data, level, checksum) => {
        const frame = zstdCompress(data, level, checksum);
        expect(sameBytes(zstdDecompress(frame), data)).toBe(true);
        cases.push({ name: `property level ${level} checksum ${checksum} length ${data.length}`, data, frame });
      }),
      { numRuns: 150, seed: 8878 },
    );
    verifyAll(cases);
  });

  it("empty and one-byte inputs, every level", () => {
    const cases: Case[] = [];
    for (const level of LEVELS) {
      for (const checksum of [false, true]) {
        for (const data of [new Uint8Array(0), new Uint8Array([42])]) {
          cases.push({ name: `len ${data.length} level ${level}`, data, frame: zstdCompress(data, level, checksum) });
        }
      }
    }
    verifyAll(cases);
  });

  it.skipIf(ZSTD_CLI === undefined)("the zstd CLI (libzstd) decodes an empty frame, with and without checksum", () => {
    for (const checksum of [false, true]) {
      const out = zstdCli(["-d", "-c", "-q"], zstdCompress(new Uint8Array(0), 3, checksum));
      expect(out.length).toBe(0);
    }
  });

  it("sizes around the 128 KiB block boundary and over 1 MiB", () => {
    const cases: Case[] = [];
    const sizes = [131071, 131072, 131073, 262145];
    for (const size of sizes) {
      for (const level of [1, 3]) {
        const data = highlyCompressible(size, size + level);
        cases.push({ name: `compressible ${size} level ${level}`, data, frame: zstdCompress(data, level, level === 3) });
      }
      const random = randomBytes(size, size);
      cases.push({ name: `random ${size}`, data: random, frame: zstdCompress(random, 3, true) });
    }
    const big = sampleArrays(1_200_000, 7).float32Temperatures;
    for (const level of [-5, 3]) {
      cases.push({ name: `float32 1.2 MB level ${level}`, data: big, frame: zstdCompress(big, level, true) });
    }
    const bigText = highlyCompressible(1_500_000, 3);
    cases.push({ name: "text 1.5 MB level 19", data: bigText, frame: zstdCompress(bigText, 19, false) });
    const bigRandom = randomBytes(1_100_000, 5);
    cases.push({ name: "random 1.1 MB level 1", data: bigRandom, frame: zstdCompress(bigRandom, 1, true) });
    verifyAll(cases);
  });

  it("typical array bytes at every sampled level", () => {
    const cases: Case[] = [];
    for (const [name, data] of Object.entries(sampleArrays(64 * 1024, 3))) {
      for (const level of LEVELS) {
        cases.push({ name: `${name} level ${level}`, data, frame: zstdCompress(data, level, level > 5) });
      }
    }
    verifyAll(cases);
  });

  it("literal tables of every shape: ≤ 128 symbols (direct weights), 256 skewed symbols (FSE weights), runs", () => {
    const r = rng(99);
    const cases: Case[] = [];
    // All 256 byte values, geometric-ish frequencies: Huffman weights need FSE compression.
    const skewed = Uint8Array.from({ length: 60000 }, () => Math.min(255, Math.floor(-Math.log(r()) * 30)));
    // 100 symbols, uniform: direct 4-bit weights.
    const hundred = Uint8Array.from({ length: 50000 }, () => Math.floor(r() * 100));
    // Runs of single bytes (RLE blocks) between noise.
    const runs = new Uint8Array(400_000);
    runs.fill(7, 0, 200_000);
    runs.set(randomBytes(1000, 4), 200_000);
    // Two-symbol data: the smallest Huffman tree.
    const twoSymbols = Uint8Array.from({ length: 20000 }, () => (r() < 0.9 ? 48 : 49));
    // Fibonacci frequencies, shuffled: the optimal tree is deeper than 11 bits and must be limited.
    const fib: number[] = [];
    for (let s = 0, a = 1, b = 1; s < 22; s++, [a, b] = [b, a + b]) for (let k = 0; k < a; k++) fib.push(s * 11);
    const deep = Uint8Array.from(fib);
    for (let i = deep.length - 1; i > 0; i--) {
      const j = Math.floor(r() * (i + 1));
      [deep[i], deep[j]] = [deep[j], deep[i]];
    }
    for (const [name, data] of Object.entries({ skewed, hundred, runs, twoSymbols, deep })) {
      for (const level of [-5, 1, 3, 19]) {
        cases.push({ name: `${name} level ${level}`, data, frame: zstdCompress(data, level, true) });
      }
    }
    verifyAll(cases);
  });

  it("produces RLE blocks for runs and raw blocks for incompressible data", () => {
    const zeros = new Uint8Array(300_000);
    const frame = zstdCompress(zeros, 3);
    // Magic 4 + header (descriptor + 4-byte size) + three 4-byte RLE blocks.
    expect(frame.length).toBe(4 + 5 + 3 * 4);
    const random = randomBytes(50_000, 1);
    const raw = zstdCompress(random, 19);
    // Frame header + one raw block: at most the input plus a few bytes.
    expect(raw.length).toBeLessThanOrEqual(random.length + 12);
  });

  it("rejects levels outside −131072…22 and non-integers", () => {
    for (const level of [23, -131073, 1.5, Number.NaN]) {
      expect(() => zstdCompress(new Uint8Array(4), level)).toThrow(
        expect.objectContaining({ code: "INVALID_ARGUMENT" }),
      );
    }
    // The extremes are accepted.
    for (const level of [-131072, 22, 0]) {
      const data = highlyCompressible(5000, 1);
      expect(sameBytes(zstdDecompress(zstdCompress(data, level)), data)).toBe(true);
    }
  });
});

describe("writeHuffmanStream", () => {
  it("refuses an output buffer without room for the longest stream (never a RangeError mid-stream)", async () => {
    const { buildHuffmanTable, writeHuffmanStream } = await import("../src/encoder/huffman.js");
    const src = new Uint8Array(1000);
    for (let i = 0; i < src.length; i++) src[i] = (i * 7) % 13;
    const counts = new Uint32Array(256);
    for (const b of src) counts[b]++;
    const table = buildHuffmanTable(counts);
    const room = ((src.length * table.maxBits) >> 3) + 5;
    const fits = new Uint8Array(room);
    expect(writeHuffmanStream(src, 0, src.length, table, fits, 0)).toBeGreaterThan(0);
    expect(() => writeHuffmanStream(src, 0, src.length, table, new Uint8Array(room - 1), 0)).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT", message: expect.stringContaining("no room for the Huffman stream") }),
    );
  });
});

describe("writeHuffmanStream against a bit-by-bit writer", () => {
  it("writes the same bytes for any table and input, long codes and odd lengths included", async () => {
    const { buildHuffmanTable, writeHuffmanStream } = await import("../src/encoder/huffman.js");
    const { BitWriter } = await import("../src/encoder/bit-writer.js");
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 1 << 20 }), { minLength: 2, maxLength: 40 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 300 }),
        fc.boolean(),
        (weights, picks, rareOnly) => {
          // Skewed weights give codes up to the 11-bit limit; Fibonacci weights surely do,
          // and drawing only their rarest symbols puts long codes next to each other.
          const fib = rareOnly ? Array.from({ length: 20 }, (_, s) => Math.round(1.618 ** s)) : weights;
          const counts = new Uint32Array(256);
          fib.forEach((w, s) => {
            counts[s] = w;
          });
          const table = buildHuffmanTable(counts);
          const src = Uint8Array.from(picks, (p) => (rareOnly ? p % 4 : p % fib.length));
          const out = new Uint8Array(((src.length * table.maxBits) >> 3) + 5);
          const end = writeHuffmanStream(src, 0, src.length, table, out, 0);
          const reference = new BitWriter(new Uint8Array(out.length), 0);
          for (let i = src.length - 1; i >= 0; i--) reference.add(table.packed[src[i]] >>> 4, table.packed[src[i]] & 15);
          const refEnd = reference.close();
          expect(end).toBe(refEnd);
          expect(Buffer.from(out.subarray(0, end))).toEqual(Buffer.from(reference.buf.subarray(0, refEnd)));
        },
      ),
      { numRuns: 500 },
    );
  });
});
