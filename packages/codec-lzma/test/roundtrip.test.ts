import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  FILTER_DELTA,
  FILTER_LZMA1,
  FILTER_LZMA2,
  FILTER_X86,
  FORMAT_ALONE,
  FORMAT_RAW,
  type LzmaOptions,
  lzmaCompress,
  lzmaDecompress,
  xzCompress,
  xzDecompress,
} from "../src/index.js";
import { float32Field, randomBytes, sameBytes } from "./data.js";

/** Inputs with structure: runs and repeats of short random pieces, so matches occur. */
const structuredBytes = fc
  .array(
    fc.oneof(
      fc.uint8Array({ minLength: 1, maxLength: 40 }),
      fc.record({ byte: fc.integer({ min: 0, max: 255 }), n: fc.integer({ min: 1, max: 300 }) }).map(({ byte, n }) =>
        new Uint8Array(n).fill(byte),
      ),
    ),
    { maxLength: 30 },
  )
  .chain((pieces) =>
    fc.array(fc.integer({ min: 0, max: Math.max(0, pieces.length - 1) }), { maxLength: 60 }).map((order) => {
      const parts = pieces.length === 0 ? [] : order.map((i) => pieces[i]);
      const total = parts.reduce((n, p) => n + p.length, 0);
      const out = new Uint8Array(total);
      let o = 0;
      for (const p of parts) {
        out.set(p, o);
        o += p.length;
      }
      return out;
    }),
  );

/** Bytes of float32 arrays: smooth series (like real array data) and arbitrary values. */
const float32Bytes = fc.oneof(
  fc.float32Array({ maxLength: 600 }),
  fc
    .record({ start: fc.float({ min: -1000, max: 1000, noNaN: true }), step: fc.float({ min: -1, max: 1, noNaN: true }), n: fc.nat(800) })
    .map(({ start, step, n }) => Float32Array.from({ length: n }, (_, i) => start + step * i + Math.sin(i / 7))),
).map((a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength));

const anyBytes = fc.oneof(fc.uint8Array({ maxLength: 2000 }), structuredBytes, float32Bytes);

const formats: LzmaOptions[] = [
  { preset: 0 },
  { preset: 6 },
  { check: 0, preset: 3 },
  { check: 1, preset: 5 },
  { check: 10, preset: 1 },
  { format: FORMAT_ALONE, preset: 6 },
  { format: FORMAT_ALONE, preset: 1 },
  { format: FORMAT_RAW, filters: [{ id: FILTER_LZMA2, preset: 4 }] },
  { format: FORMAT_RAW, filters: [{ id: FILTER_LZMA1, preset: 2, lc: 0, lp: 2, pb: 0 }] },
  { filters: [{ id: FILTER_DELTA, dist: 4 }, { id: FILTER_LZMA2, preset: 1 }] },
  { filters: [{ id: FILTER_X86 }, { id: FILTER_LZMA2, preset: 7, mode: 1 }] },
  { format: FORMAT_RAW, filters: [{ id: FILTER_DELTA, dist: 2 }, { id: FILTER_LZMA1, mode: 1, mf: 0x14 }] },
  { filters: [{ id: FILTER_LZMA2, lc: 1, lp: 3, pb: 4, nice_len: 5, mf: 0x04, mode: 2, dict_size: 4096 }] },
];

describe("round trips", () => {
  it("restores any input in every format, check and parser setting", () => {
    fc.assert(
      fc.property(anyBytes, fc.constantFrom(...formats), (input, options) => {
        const compressed = lzmaCompress(input, options);
        const decoded = lzmaDecompress(compressed, options);
        expect(sameBytes(decoded, input)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it("handles empty and one-byte inputs in every format", () => {
    for (const options of formats) {
      for (const input of [new Uint8Array(0), new Uint8Array([0x5a])]) {
        expect(sameBytes(lzmaDecompress(lzmaCompress(input, options), options), input)).toBe(true);
      }
    }
  });

  it("compresses repetitive data strongly and stores random data with little overhead", () => {
    const zeros = new Uint8Array(1 << 20);
    const z = xzCompress(zeros);
    expect(z.length).toBeLessThan(400);
    expect(sameBytes(xzDecompress(z), zeros)).toBe(true);

    const random = randomBytes(140_000);
    const r = xzCompress(random, { preset: 6 });
    // Stored LZMA2 chunks: 3 bytes per 64 KiB plus the container.
    expect(r.length).toBeLessThan(random.length + 128);
    expect(sameBytes(xzDecompress(r), random)).toBe(true);
  });

  it("compresses float32 array bytes (optimal and fast parsers)", () => {
    const field = float32Field(1 << 14);
    for (const preset of [1, 6]) {
      const c = xzCompress(field, { preset });
      expect(c.length).toBeLessThan(field.length * 0.7);
      expect(sameBytes(xzDecompress(c), field)).toBe(true);
    }
  });

});
