/**
 * Interoperability with liblzma (Python's `lzma`) and numcodecs 0.11, both directions:
 * Python decodes what we encode, and we decode what Python encodes, in every format and check.
 */
import { describe, expect, it } from "vitest";
import type { LzmaOptions } from "../src/index.js";
import {
  FILTER_DELTA,
  FILTER_LZMA2,
  FILTER_X86,
  FORMAT_ALONE,
  FORMAT_AUTO,
  FORMAT_RAW,
  lzmaCompress,
  lzmaDecompress,
  xzCompress,
  xzDecompress,
} from "../src/index.js";
import { float32Field, randomBytes, sameBytes, textBytes } from "./data.js";
import { okBytes, type PyJob, runPython } from "./python.js";

/** Python-side keyword arguments for our options (LZMA1's id spelled "LZMA1"). */
function pyKwargs(options: LzmaOptions): Record<string, unknown> {
  const kw: Record<string, unknown> = {};
  if (options.format !== undefined) kw.format = options.format;
  if (options.check !== undefined) kw.check = options.check;
  if (options.preset !== undefined) kw.preset = options.preset;
  if (options.filters) {
    kw.filters = options.filters.map((f) => ({ ...f, id: typeof f.id === "bigint" ? "LZMA1" : f.id }));
  }
  return kw;
}

/** Keyword arguments valid for Python's decompress (no check/preset). */
function pyDecompressKwargs(options: LzmaOptions): Record<string, unknown> {
  const kw = pyKwargs(options);
  delete kw.check;
  delete kw.preset;
  if (options.format !== FORMAT_RAW) delete kw.filters;
  return kw;
}

const LZMA1 = 0x4000000000000001n;

const inputs: Array<[string, Uint8Array]> = [
  ["empty", new Uint8Array(0)],
  ["one byte", new Uint8Array([42])],
  ["text", textBytes(8_000)],
  ["float32", float32Field(2_500)],
  ["random", randomBytes(8_000)],
];

// Every format and check we write.
const ourOptions: LzmaOptions[] = [
  {},
  { check: 0, preset: 0 },
  { check: 1, preset: 3 },
  { check: 4, preset: 6 },
  { check: 10, preset: 9 },
  { filters: [{ id: FILTER_DELTA, dist: 4 }, { id: FILTER_LZMA2, preset: 1 }] },
  { filters: [{ id: FILTER_X86, start_offset: 4096 }, { id: FILTER_LZMA2, preset: 5 }] },
  { format: FORMAT_ALONE },
  { format: FORMAT_ALONE, preset: 0 },
  { format: FORMAT_ALONE, filters: [{ id: LZMA1, lc: 0, lp: 2, pb: 1, dict_size: 1 << 16 }] },
  { format: FORMAT_RAW, filters: [{ id: FILTER_LZMA2, preset: 2 }] },
  { format: FORMAT_RAW, filters: [{ id: FILTER_DELTA, dist: 2 }, { id: FILTER_LZMA2, preset: 6 }] },
  { format: FORMAT_RAW, filters: [{ id: LZMA1, preset: 6 }] },
];

describe("liblzma reads what we write", () => {
  it("decodes our output for every format, check and filter chain", () => {
    const jobs: PyJob[] = [];
    const expected: Uint8Array[] = [];
    for (const options of ourOptions) {
      for (const [, input] of inputs) {
        jobs.push({ op: "decompress", data: lzmaCompress(input, options), kwargs: pyDecompressKwargs(options) });
        expected.push(input);
      }
    }
    const results = runPython(jobs);
    results.forEach((r, i) => {
      expect(sameBytes(okBytes(r), expected[i])).toBe(true);
    });
  });

  it("decodes more than 2 MiB split into LZMA2 chunks within the size limits", () => {
    const big = new Uint8Array((2 << 20) + 140_000);
    big.set(textBytes(2 << 20));
    big.set(randomBytes(140_000), 2 << 20);
    const ours = xzCompress(big, { preset: 0 });
    // Walk the LZMA2 chunk headers inside the block: sizes within limits, LZMA and stored
    // chunks both present, sizes adding up to the input.
    let pos = 12 + (ours[12] + 1) * 4;
    let total = 0;
    let lzmaChunks = 0;
    let storedChunks = 0;
    while (ours[pos] !== 0) {
      const control = ours[pos];
      if (control >= 0x80) {
        const unc = ((control & 0x1f) << 16) + (ours[pos + 1] << 8) + ours[pos + 2] + 1;
        const comp = (ours[pos + 3] << 8) + ours[pos + 4] + 1;
        expect(unc).toBeLessThanOrEqual(2 << 20);
        expect(comp).toBeLessThanOrEqual(1 << 16);
        total += unc;
        lzmaChunks++;
        pos += 5 + (control >= 0xc0 ? 1 : 0) + comp;
      } else {
        const n = (ours[pos + 1] << 8) + ours[pos + 2] + 1;
        total += n;
        storedChunks++;
        pos += 3 + n;
      }
    }
    expect(total).toBe(big.length);
    expect(lzmaChunks).toBeGreaterThan(1);
    expect(storedChunks).toBeGreaterThan(1);
    const alone = lzmaCompress(big.subarray(0, 100_000), { format: FORMAT_ALONE, preset: 1 });
    const [r1, r2, r3] = runPython([
      { op: "decompress", data: ours },
      { op: "numcodecs_decode", data: ours, kwargs: {} },
      { op: "numcodecs_decode", data: alone, kwargs: { format: FORMAT_ALONE } },
    ]);
    expect(sameBytes(okBytes(r1), big)).toBe(true);
    expect(sameBytes(okBytes(r2), big)).toBe(true);
    expect(sameBytes(okBytes(r3), big.subarray(0, 100_000))).toBe(true);
    expect(sameBytes(xzDecompress(ours), big)).toBe(true);
  });
});

describe("we read what liblzma and numcodecs write", () => {
  const payload = new Uint8Array(60_000);
  payload.set(textBytes(30_000));
  payload.set(float32Field(5_000), 30_000);
  payload.set(randomBytes(10_000), 50_000);

  it("decodes every format / check / preset combination", () => {
    const cases: LzmaOptions[] = [];
    // Every check, each with two presets (fast and normal parsing; 9 is the largest dictionary).
    const presets = [0, 6, 1, 9, 3, 5, 2, 7, 4, 8];
    [-1, 0, 1, 4, 10].forEach((check, i) => {
      cases.push({ check, preset: presets[2 * i] }, { check, preset: presets[2 * i + 1] });
    });
    cases.push({ preset: 6 + 0x80000000 });
    for (const preset of [0, 6]) cases.push({ format: FORMAT_ALONE, preset });
    cases.push({ format: FORMAT_ALONE, filters: [{ id: LZMA1, lc: 4, lp: 0, pb: 0 }] });
    cases.push({ format: FORMAT_RAW, filters: [{ id: FILTER_LZMA2, preset: 1 }] });
    cases.push({ format: FORMAT_RAW, filters: [{ id: FILTER_LZMA2, preset: 7, lc: 0, lp: 4, pb: 3 }] });
    cases.push({ format: FORMAT_RAW, filters: [{ id: LZMA1, preset: 6 }] });
    cases.push({ format: FORMAT_RAW, filters: [{ id: FILTER_DELTA, dist: 4 }, { id: FILTER_LZMA2 }] });
    cases.push({ filters: [{ id: FILTER_DELTA, dist: 4 }, { id: FILTER_LZMA2, preset: 1 }] });
    cases.push({ filters: [{ id: FILTER_X86 }, { id: FILTER_LZMA2 }] });
    cases.push({ filters: [{ id: FILTER_X86, start_offset: 1 << 20 }, { id: FILTER_DELTA, dist: 3 }, { id: FILTER_LZMA2 }] });
    const jobs: PyJob[] = cases.map((c) => ({ op: "compress", data: payload, kwargs: pyKwargs(c) }));
    // Empty and tiny inputs too.
    jobs.push({ op: "compress", data: new Uint8Array(0), kwargs: {} });
    jobs.push({ op: "compress", data: new Uint8Array([7]), kwargs: { format: FORMAT_ALONE } });
    const results = runPython(jobs);
    cases.forEach((options, i) => {
      const decoded = lzmaDecompress(okBytes(results[i]), options);
      expect(sameBytes(decoded, payload)).toBe(true);
    });
    expect(xzDecompress(okBytes(results[cases.length])).length).toBe(0);
    expect(Array.from(lzmaDecompress(okBytes(results[cases.length + 1]), { format: FORMAT_ALONE }))).toEqual([7]);
  });

  it("decodes executable-like data through the x86 BCJ filter", () => {
    // Many E8/E9 opcodes with near targets, so the filter actually converts addresses.
    const code = randomBytes(20_000, 9);
    for (let i = 0; i + 5 < code.length; i += 7) {
      code[i] = i % 2 ? 0xe8 : 0xe9;
      code[i + 4] = i % 3 ? 0x00 : 0xff;
    }
    const [r] = runPython([{ op: "compress", data: code, kwargs: { filters: [{ id: FILTER_X86 }, { id: FILTER_LZMA2 }] } }]);
    expect(sameBytes(xzDecompress(okBytes(r)), code)).toBe(true);
    // And liblzma reads our x86-filtered output of the same data.
    const ours = xzCompress(code, { filters: [{ id: FILTER_X86 }, { id: FILTER_LZMA2 }] });
    const [back] = runPython([{ op: "decompress", data: ours }]);
    expect(sameBytes(okBytes(back), code)).toBe(true);
  });

  it("decodes numcodecs.LZMA output for its configurations", () => {
    const configs: Record<string, unknown>[] = [
      {},
      { preset: 1 },
      { check: 10, preset: 9 },
      { format: FORMAT_ALONE },
      { format: FORMAT_RAW, filters: [{ id: FILTER_LZMA2, preset: 1 }] },
      { format: FORMAT_RAW, filters: [{ id: FILTER_DELTA, dist: 4 }, { id: FILTER_LZMA2, preset: 1 }] },
      // numcodecs' documented example (it can encode but not decode this itself).
      { filters: [{ id: FILTER_DELTA, dist: 4 }, { id: FILTER_LZMA2, preset: 1 }] },
    ];
    const results = runPython(configs.map((kwargs) => ({ op: "numcodecs_encode", data: payload, kwargs })));
    configs.forEach((config, i) => {
      const decoded = lzmaDecompress(okBytes(results[i]), config as LzmaOptions);
      expect(sameBytes(decoded, payload)).toBe(true);
    });
  });

  it("decodes concatenated streams, with and without stream padding", () => {
    const a = textBytes(5000, 11);
    const b = float32Field(3000, 12);
    const [xa, xb, aa, ab] = runPython([
      { op: "compress", data: a, kwargs: { check: 1 } },
      { op: "compress", data: b, kwargs: { check: 10 } },
      { op: "compress", data: a, kwargs: { format: FORMAT_ALONE } },
      { op: "compress", data: b, kwargs: { format: FORMAT_ALONE } },
    ]).map(okBytes);
    const both = new Uint8Array(a.length + b.length);
    both.set(a);
    both.set(b, a.length);
    const pad = new Uint8Array(8);
    expect(sameBytes(xzDecompress(Buffer.concat([xa, xb])), both)).toBe(true);
    expect(sameBytes(xzDecompress(Buffer.concat([xa, pad, xb, pad.subarray(0, 4)])), both)).toBe(true);
    expect(sameBytes(lzmaDecompress(Buffer.concat([aa, ab]), { format: FORMAT_ALONE }), both)).toBe(true);
    // Format 0 (auto) recognises both kinds.
    expect(sameBytes(lzmaDecompress(xa, { format: FORMAT_AUTO }), a)).toBe(true);
    expect(sameBytes(lzmaDecompress(ab, { format: FORMAT_AUTO }), b)).toBe(true);
  });
});
