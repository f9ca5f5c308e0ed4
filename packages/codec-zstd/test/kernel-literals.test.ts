/**
 * Literal-heavy input through the WebAssembly decoder and the TypeScript decoder: text-like
 * bytes over alphabets from 1 to 256 symbols with skews from flat to steep, so the Huffman
 * trees range from 1-bit codes (the kernel's two-symbols-per-lookup table) to 11-bit ones
 * (one symbol per lookup), in 4 streams and in 1, plus RLE, raw and treeless literal sections
 * (block-features.ts checks that the corpus has each). Every frame must decode to the same
 * bytes on both paths; damaged ones must fail with the same error codes.
 */
import { setWasmKernels } from "@zarr/spec";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { zstdCompress, zstdDecompress } from "../src/index.js";
import { byteFlips, flipBytes } from "./arbitraries.js";
import { blockFeatures } from "./block-features.js";
import { rleTablesFrame } from "./frames.js";
import { libzstdEncode, rng, sameBytes } from "./reference.js";
import { samePaths } from "./same-paths.js";

afterEach(() => setWasmKernels(true));

interface TextSpec {
  /** Distinct byte values used. */
  alphabet: number;
  /** Symbol k has weight 1 / (k + 1)^skew: 0 is flat, 3 is a few symbols almost always. */
  skew: number;
  length: number;
  seed: number;
  /** Insert words repeated from earlier (some matches between literal runs) or not. */
  repeats: boolean;
}

/** Text-like bytes: symbols drawn from a skewed distribution, optionally with repeated words. */
function textLike({ alphabet, skew, length, seed, repeats }: TextSpec): Uint8Array {
  const r = rng(seed);
  const weights = Array.from({ length: alphabet }, (_, k) => 1 / (k + 1) ** skew);
  const total = weights.reduce((a, b) => a + b, 0);
  const cumulative: number[] = [];
  let acc = 0;
  for (const w of weights) cumulative.push((acc += w / total));
  // Symbols are spread over the byte range (not 0..alphabet-1), so trees have gaps.
  const stride = alphabet > 1 ? Math.floor(255 / (alphabet - 1)) : 1;
  const base = Math.floor(r() * (256 - stride * (alphabet - 1)));
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) {
    if (repeats && i > 64 && r() < 0.01) {
      // A word from earlier: a short match for the sequences section.
      const from = Math.floor(r() * (i - 32));
      const n = Math.min(4 + Math.floor(r() * 12), length - i);
      out.copyWithin(i, from, from + n);
      i += n - 1;
      continue;
    }
    const u = r();
    let k = 0;
    while (k < alphabet - 1 && cumulative[k] < u) k++;
    out[i] = base + k * stride;
  }
  return out;
}

const textSpec: fc.Arbitrary<TextSpec> = fc.record({
  alphabet: fc.oneof(fc.integer({ min: 1, max: 16 }), fc.integer({ min: 17, max: 64 }), fc.integer({ min: 65, max: 256 })),
  skew: fc.double({ min: 0, max: 3, noNaN: true }),
  // Single-stream literal sections are under 1 KiB; 4 streams go up to a 128 KiB block.
  length: fc.oneof(fc.integer({ min: 0, max: 1100 }), fc.integer({ min: 1100, max: 300_000 })),
  seed: fc.nat(),
  repeats: fc.boolean(),
});

/** Decodes `frame` both ways and checks the result is `data`. */
function expectDecodes(frame: Uint8Array, data: Uint8Array, name: string): void {
  const result = samePaths(() => zstdDecompress(frame), name);
  expect("bytes" in result && sameBytes(result.bytes, data), `${name}: ${"code" in result ? result.message : "wrong bytes"}`).toBe(true);
}

let corpusCache: Array<{ name: string; data: Uint8Array; frame: Uint8Array }> | undefined;
/** Text-like inputs encoded by libzstd (levels 1…19) and by this package's encoder. */
function corpus(): Array<{ name: string; data: Uint8Array; frame: Uint8Array }> {
  if (corpusCache === undefined) {
    const specs = fc.sample(fc.tuple(textSpec, fc.constantFrom(1, 3, 7, 12, 19)), { numRuns: 48, seed: 2208 });
    // Fixed cases: a single repeated byte, random bytes (raw literals), 1-bit codes (two
    // symbols only, the pairs table's shortest codes), and many small blocks.
    specs.push(
      [{ alphabet: 1, skew: 0, length: 70_000, seed: 1, repeats: true }, 1],
      [{ alphabet: 256, skew: 0, length: 70_000, seed: 2, repeats: false }, 3],
      [{ alphabet: 2, skew: 0, length: 200_000, seed: 3, repeats: false }, 1],
      [{ alphabet: 12, skew: 1, length: 400_000, seed: 4, repeats: true }, 19],
      // Zipf-like letters, as in natural text: short codes for a few symbols, up to 11-bit
      // codes for the rare ones (pairs of a short and a long code fill the 11-bit window).
      [{ alphabet: 27, skew: 1, length: 200_000, seed: 5, repeats: false }, 3],
      [{ alphabet: 40, skew: 1.2, length: 200_000, seed: 6, repeats: true }, 1],
      [{ alphabet: 96, skew: 1.5, length: 200_000, seed: 7, repeats: false }, 7],
      [{ alphabet: 200, skew: 2, length: 200_000, seed: 8, repeats: false }, 3],
    );
    const inputs = specs.map(([spec, level]) => ({ spec, level, data: textLike(spec) }));
    const frames = libzstdEncode(inputs.map(({ data, level }) => ({ data, level })));
    const name = ({ spec, level }: (typeof inputs)[number], by: string) =>
      `${by} level ${level}: ${spec.length} bytes over ${spec.alphabet} symbols, skew ${spec.skew.toFixed(2)}${spec.repeats ? ", repeats" : ""}`;
    corpusCache = [
      ...inputs.map((input, i) => ({ name: name(input, "numcodecs"), data: input.data, frame: frames[i] })),
      ...inputs.filter((_, i) => i % 4 === 0).map((input) => ({ name: name(input, "ours"), data: input.data, frame: zstdCompress(input.data, Math.min(input.level, 9)) })),
      // RLE literals (no compressor here writes them), then treeless ones.
      rleTablesFrame(),
    ];
  }
  return corpusCache;
}

describe("WebAssembly and TypeScript decoders agree on literal-heavy input", () => {
  it("the corpus has 4-stream, 1-stream, RLE, raw and treeless literal sections", () => {
    const found = new Set<string>();
    for (const c of corpus()) for (const f of blockFeatures(c.frame)) found.add(f);
    for (const feature of ["literals:huffman-4-streams", "literals:huffman-1-stream", "literals:rle", "literals:raw", "literals:treeless"]) {
      expect(found.has(feature), feature).toBe(true);
    }
  });

  it("text-like bytes over every alphabet size and skew decode to the same bytes", () => {
    for (const c of corpus()) expectDecodes(c.frame, c.data, c.name);
  });

  it("random text-like inputs at random levels (property)", () => {
    fc.assert(
      fc.property(textSpec, fc.constantFrom(-3, 1, 3), (spec, level) => {
        const data = textLike(spec);
        expectDecodes(zstdCompress(data, level), data, `ours level ${level}, ${spec.length} bytes over ${spec.alphabet} symbols`);
      }),
      { numRuns: 40, seed: 2209 },
    );
  });

  it("flipped bytes in literal-heavy frames give the same bytes or the same error codes", () => {
    const frames = corpus()
      .filter((c) => c.data.length > 2000)
      .map((c) => c.frame);
    fc.assert(
      fc.property(fc.constantFrom(...frames), byteFlips, (frame, flips) => {
        samePaths(() => zstdDecompress(flipBytes(frame, flips, 2048)), "flipped");
      }),
      { numRuns: 600, seed: 2210 },
    );
  });
});
