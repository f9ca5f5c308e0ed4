/**
 * The decoder against a corpus that exercises every part of the format: libzstd
 * (numcodecs 0.11) at many levels on data shaped to trigger each block feature, this
 * package's encoder, frames rewritten without Frame_Content_Size, a hand-built frame for
 * the features no compressor here emits (RLE literals, RLE sequence tables followed by
 * Repeat_Mode, the 3-byte sequence count), and the zstd CLI when installed (checksums,
 * streamed frames, 1 KiB windows, small compressed blocks). Then property tests (random
 * inputs through both encoders) and corruption of multi-block libzstd frames.
 */
import { ZarrError } from "@zarr/spec";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { zstdCompress, zstdDecompress, zstdDecompressInto } from "../src/index.js";
import { byteFlips, flipBytes, structuredData as structured } from "./arbitraries.js";
import { ALL_FEATURES, blockFeatures } from "./block-features.js";
import { concat, rleTablesFrame, streamedHeader } from "./frames.js";
import { type Fixture, libzstdDecode, libzstdEncode, libzstdFixtures, rng, sameBytes, sampleArrays, ZSTD_CLI, zstdCli } from "./reference.js";

let dataCache: Record<string, Uint8Array> | undefined;
/** Deterministic payloads, each shaped to bring out some decoder path (built once). */
function corpusData(): Record<string, Uint8Array> {
  dataCache ??= buildCorpusData();
  return dataCache;
}

function buildCorpusData(): Record<string, Uint8Array> {
  const r = rng(2024);
  const random = (n: number) => Uint8Array.from({ length: n }, () => Math.floor(r() * 256));
  const arrays = sampleArrays(200_000, 8);
  // Long matches: a random block three times (matches longer than a block).
  const block = random(100_000);
  const repeated = new Uint8Array(300_000);
  for (let i = 0; i < 3; i++) repeated.set(block, i * 100_000);
  // Random stretches (long literal runs) between periodic runs of period 1, 2, 3, 5, 16
  // (overlapping matches, short and long).
  const runs = new Uint8Array(200_000);
  for (let at = 0; at < runs.length; ) {
    const len = Math.min(runs.length - at, 50 + Math.floor(r() * 3000));
    if (r() < 0.4) runs.set(random(len), at);
    else {
      const period = [1, 2, 3, 5, 16][Math.floor(r() * 5)];
      const unit = random(period);
      for (let k = 0; k < len; k++) runs[at + k] = unit[k % period];
    }
    at += len;
  }
  // Many tiny matches: 3-byte tokens picked at random (dense sequences).
  const tokens = Array.from({ length: 12 }, () => random(3));
  const dense = new Uint8Array(262_144);
  for (let at = 0; at + 3 <= dense.length; at += 3) dense.set(tokens[Math.floor(r() * tokens.length)], at);
  // A small skewed alphabet (few Huffman weights) and mostly-zero data (RLE blocks).
  const skewed = Uint8Array.from({ length: 200_000 }, () => Math.min(40, Math.floor(-Math.log(1 - r()) * 4)));
  const zeros = new Uint8Array(280_000);
  for (let i = 0; i < 20; i++) zeros[Math.floor(r() * 100_000)] = 1 + Math.floor(r() * 255);
  return {
    ...arrays,
    random: random(150_000),
    repeated,
    runs,
    dense,
    skewed,
    zeros,
    tiny: new Uint8Array([7]),
    short: arrays.text.subarray(0, 700),
  };
}

const LEVELS = [-5, 1, 3, 9, 19];

type Case = Fixture;

let libzstdCases: Case[] | undefined;
/** The numcodecs (libzstd) corpus, encoded on first use (inside a test: needs Python). */
function libzstdCorpus(): Case[] {
  // Level 19 is slow in libzstd: a few payloads are enough (repeat modes, treeless).
  const slowOnes = ["float32Temperatures", "float32Smooth", "text", "dense", "short"];
  libzstdCases ??= libzstdFixtures(corpusData(), (name) => LEVELS.filter((level) => level !== 19 || slowOnes.includes(name)));
  return libzstdCases;
}

let ourCases: Case[] | undefined;
/** This package's encoder on the same payloads (a few levels; built once). */
function ourCorpus(): Case[] {
  ourCases ??= buildOurCorpus();
  return ourCases;
}

function buildOurCorpus(): Case[] {
  const cases: Case[] = [];
  for (const [name, data] of Object.entries(corpusData())) {
    for (const level of [-5, 3]) {
      cases.push({ name: `ours ${name} level ${level}`, data, frame: zstdCompress(data, level, level === 3) });
    }
  }
  return cases;
}

/** zstd CLI frames (when installed): streamed with checksums, tiny windows, small blocks. */
function cliCorpus(): Case[] {
  if (ZSTD_CLI === undefined) return [];
  const data = corpusData();
  const cases: Case[] = [];
  const variants = [["-3"], ["-19"], ["--zstd=wlog=10"], ["-1", "--target-compressed-block-size=2000"]];
  for (const name of ["float32Temperatures", "text", "runs", "repeated"]) {
    const payload = data[name].subarray(0, 160_000);
    for (const args of variants) {
      cases.push({ name: `cli ${name} ${args.join(" ")}`, data: payload, frame: zstdCli([...args, "-c", "-q"], payload) });
    }
  }
  return cases;
}

function expectZarrError(fn: () => unknown, codes: string[]): void {
  try {
    fn();
  } catch (error) {
    if (!(error instanceof ZarrError)) throw error;
    expect(codes).toContain(error.code);
    return;
  }
  throw new Error("expected a ZarrError");
}

describe("zstdDecompress on a corpus covering the format", () => {
  it("decodes every libzstd frame (numcodecs, levels −5…19, 1 byte…300 KB)", () => {
    for (const c of libzstdCorpus()) expect(sameBytes(zstdDecompress(c.frame), c.data), c.name).toBe(true);
  });

  it("decodes into a window of a larger buffer, touching nothing outside it", () => {
    for (const c of [...libzstdCorpus(), ...ourCorpus()]) {
      for (const frame of [c.frame, streamedHeader(c.frame, 17)]) {
        const big = new Uint8Array(c.data.length + 64).fill(0xa5);
        zstdDecompressInto(frame, big.subarray(32, 32 + c.data.length));
        expect(sameBytes(big.subarray(32, 32 + c.data.length), c.data), c.name).toBe(true);
        expect(big.subarray(0, 32).every((b) => b === 0xa5) && big.subarray(32 + c.data.length).every((b) => b === 0xa5)).toBe(true);
      }
      if (c.data.length > 0) expectZarrError(() => zstdDecompressInto(c.frame, new Uint8Array(c.data.length - 1)), ["CODEC_FAILED"]);
    }
  });

  it("decodes this package's encoder output and streamed (size-less) rewrites of it", () => {
    for (const c of ourCorpus()) {
      expect(sameBytes(zstdDecompress(c.frame), c.data), c.name).toBe(true);
      expect(sameBytes(zstdDecompress(streamedHeader(c.frame, 17)), c.data), `${c.name}, streamed`).toBe(true);
    }
  });

  it("decodes the hand-built RLE-tables frame exactly as libzstd does", () => {
    const c = rleTablesFrame();
    expect(sameBytes(zstdDecompress(c.frame), c.data)).toBe(true);
    const [reference] = libzstdDecode([c.frame]);
    expect(reference.ok && sameBytes(reference.bytes, c.data)).toBe(true);
  });

  it.skipIf(ZSTD_CLI === undefined)("decodes zstd CLI frames: checksums, no content size, 1 KiB windows, small blocks", () => {
    for (const c of cliCorpus()) expect(sameBytes(zstdDecompress(c.frame), c.data), c.name).toBe(true);
  });

  it("the corpus uses every frame, block, literals and sequence-table feature", () => {
    const found = new Set<string>();
    const cases = [...libzstdCorpus(), ...ourCorpus(), rleTablesFrame()];
    for (const c of cases) for (const f of blockFeatures(c.frame)) found.add(f);
    for (const f of blockFeatures(streamedHeader(ourCorpus()[0].frame, 20))) found.add(f);
    expect(ALL_FEATURES.filter((f) => !found.has(f))).toEqual([]);
  });

  it("multiple frames of every kind in one input, with skippable frames between", () => {
    const lib = libzstdCorpus();
    const pick = [lib[3], ourCorpus()[4], rleTablesFrame(), lib[20]];
    const skippable = new Uint8Array([0x5a, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 9, 9, 9]);
    const stream = concat(pick[0].frame, skippable, streamedHeader(pick[1].frame, 22), pick[2].frame, pick[3].frame);
    const expected = concat(...pick.map((c) => c.data));
    expect(sameBytes(zstdDecompress(stream), expected)).toBe(true);
    expect(zstdDecompress(stream, expected.length).length).toBe(expected.length);
    expectZarrError(() => zstdDecompress(stream, expected.length - 1), ["CODEC_FAILED"]);
  });
});

describe("zstdDecompress property tests", () => {
  it("our encoder → our decoder, every level, with and without checksum", () => {
    fc.assert(
      fc.property(structured, fc.constantFrom(-7, -1, 1, 2, 3, 5, 9, 13, 19, 22), fc.boolean(), (data, level, checksum) => {
        expect(sameBytes(zstdDecompress(zstdCompress(data, level, checksum)), data)).toBe(true);
      }),
      { numRuns: 100, seed: 8878 },
    );
  });

  it("libzstd → our decoder on random structured inputs at random levels", () => {
    const inputs = fc.sample(fc.tuple(structured, fc.constantFrom(-3, 1, 3, 6, 12, 19)), { numRuns: 40, seed: 1234 });
    const nonEmpty = inputs.filter(([data]) => data.length > 0);
    const frames = libzstdEncode(nonEmpty.map(([data, level]) => ({ data, level })));
    nonEmpty.forEach(([data, level], i) => {
      expect(sameBytes(zstdDecompress(frames[i]), data), `level ${level}, ${data.length} bytes`).toBe(true);
    });
  });
});

describe("zstdDecompress on corrupted libzstd frames", () => {
  it("random byte flips in multi-block frames decode or throw a ZarrError, never anything else", () => {
    const frames = libzstdCorpus()
      .filter((c) => c.data.length > 200_000 && c.frame.length < 200_000)
      .map((c) => c.frame);
    expect(frames.length).toBeGreaterThan(5);
    fc.assert(
      fc.property(
        fc.constantFrom(...frames),
        byteFlips,
        (frame, flips) => {
          const bad = flipBytes(frame, flips, 2048);
          try {
            zstdDecompress(bad);
          } catch (error) {
            if (!(error instanceof ZarrError)) throw error;
            expect(["CODEC_FAILED", "CHECKSUM_MISMATCH", "UNSUPPORTED"]).toContain(error.code);
          }
        },
      ),
      { numRuns: 300, seed: 42 },
    );
  });

  it("truncations and a corrupted hand-built frame fail with CODEC_FAILED", () => {
    const frame = libzstdCorpus().find((c) => c.name === "runs level 3")?.frame as Uint8Array;
    for (let len = 0; len < frame.length; len += 1 + Math.floor(len / 7)) {
      expectZarrError(() => zstdDecompress(frame.subarray(0, len)), ["CODEC_FAILED"]);
    }
    const hand = rleTablesFrame().frame;
    // Offset code 0 → Offset_Value 1 with literal length 0 → repeat offset 2 (4): reaches
    // before the frame's start on the first sequence.
    const noLiterals = hand.slice();
    noLiterals[12 + 8] = 0; // RLE literal-length code 0
    expectZarrError(() => zstdDecompress(noLiterals), ["CODEC_FAILED"]);
  });
});
