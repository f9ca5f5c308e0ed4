import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bz2Compress, bz2Decompress } from "../src/index.js";
import { concat, firstDifference, floatFieldBytes, int16StepBytes, randomBytes, textBytes } from "./helpers.js";

function roundTrip(input: Uint8Array, level: number): Uint8Array {
  const packed = bz2Compress(input, level);
  const back = bz2Decompress(packed);
  expect(back.length).toBe(input.length);
  expect(firstDifference(back, input)).toBe(-1);
  return packed;
}

/** `count` copies of `byte`. */
function run(byte: number, count: number): Uint8Array {
  return new Uint8Array(count).fill(byte);
}

describe("bz2 round trips", () => {
  it("writes the stream header with the level and an end-of-stream mark for empty input", () => {
    for (let level = 1; level <= 9; level++) {
      const packed = roundTrip(new Uint8Array(0), level);
      // "BZh<level>", end-of-stream magic, combined CRC 0: nothing else.
      expect(Array.from(packed)).toEqual([0x42, 0x5a, 0x68, 0x30 + level, 0x17, 0x72, 0x45, 0x38, 0x50, 0x90, 0, 0, 0, 0]);
    }
  });

  it("round-trips a single byte of every value", () => {
    for (let b = 0; b < 256; b++) roundTrip(Uint8Array.of(b), (b % 9) + 1);
  });

  it("round-trips runs around the RLE1 boundaries (4, 5, 255, 256, ...)", () => {
    const lengths = [1, 2, 3, 4, 5, 6, 7, 8, 250, 254, 255, 256, 257, 258, 259, 260, 510, 511, 512, 1000];
    for (const n of lengths) {
      roundTrip(run(0x61, n), 9);
      roundTrip(concat(Uint8Array.of(1, 2), run(0, n), Uint8Array.of(3)), 9);
      // The count byte equal to the run byte, and a run right after a count.
      roundTrip(concat(run(n & 0xff, n), run((n + 1) & 0xff, 4), run(n & 0xff, 5)), 9);
    }
  });

  it("round-trips arbitrary bytes at every level (property)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), fc.integer({ min: 1, max: 9 }), (input, level) => {
        expect(firstDifference(bz2Decompress(bz2Compress(input, level)), input)).toBe(-1);
      }),
      { numRuns: 150 },
    );
  });

  it("round-trips sequences of runs of any length (property)", () => {
    const runs = fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 1, max: 600 })), {
      maxLength: 40,
    });
    fc.assert(
      fc.property(runs, (spec) => {
        const input = concat(...spec.map(([byte, count]) => run(byte, count)));
        expect(firstDifference(bz2Decompress(bz2Compress(input, 1)), input)).toBe(-1);
      }),
      { numRuns: 150 },
    );
  });

  it("compresses 1 MiB of zeros to a few dozen bytes and back", () => {
    const zeros = new Uint8Array(1 << 20);
    for (const level of [1, 9]) {
      const packed = roundTrip(zeros, level);
      expect(packed.length).toBeLessThan(100);
    }
  });

  it("sorts highly repetitive blocks without quadratic blow-up", () => {
    // Periodic blocks: every rotation ties with many others for its whole length.
    const patterns = [Uint8Array.of(1, 2), Uint8Array.of(7, 7, 7, 8), new TextEncoder().encode("abcabcabd")];
    const started = performance.now();
    for (const pattern of patterns) {
      const input = new Uint8Array(150_000);
      for (let i = 0; i < input.length; i++) input[i] = pattern[i % pattern.length];
      roundTrip(input, 9);
    }
    // A quadratic sort needs minutes here.
    expect(performance.now() - started).toBeLessThan(15_000);
  });

  it("round-trips random data, text and array bytes across several blocks", () => {
    const inputs = [randomBytes(105_000, 5), textBytes(110_000), floatFieldBytes(30_000), int16StepBytes(60_000)];
    for (const input of inputs) roundTrip(input, 1);
  });

  it("respects the block size of every level", () => {
    // Our decoder rejects blocks larger than the header's level allows, so a round trip
    // with more than one block's worth of data checks where the encoder splits blocks.
    const large = textBytes(210_000, 11);
    for (const level of [1, 2]) expect(roundTrip(large, level)[3]).toBe(0x30 + level);
    const small = textBytes(30_000, 12);
    for (let level = 3; level <= 9; level++) expect(roundTrip(small, level)[3]).toBe(0x30 + level);
  });

  it("compresses text and array bytes well", () => {
    expect(bz2Compress(textBytes(100_000), 9).length).toBeLessThan(100_000 / 3);
    expect(bz2Compress(int16StepBytes(50_000), 9).length).toBeLessThan(100_000 / 10);
    // Incompressible data grows by well under 1 %.
    expect(bz2Compress(randomBytes(100_000), 9).length).toBeLessThan(101_000);
  });

  it("rejects a level outside 1–9", () => {
    for (const level of [0, 10, 1.5, Number.NaN]) {
      expect(() => bz2Compress(new Uint8Array(1), level)).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    }
  });
});
