/**
 * zstdDecompress against libzstd's output (numcodecs 0.11 and the zstd CLI): several
 * levels, multiple and skippable frames, frames without a content size, checksums, and
 * hostile input (corrupt, truncated, absurd sizes) that must fail cleanly.
 */
import { ZarrError } from "@zarr/spec";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { zstdCompress, zstdDecompress } from "../src/index.js";
import { concat } from "./frames.js";
import { libzstdEncode, rng, sameBytes, sampleArrays, ZSTD_CLI, zstdCli } from "./reference.js";

/** A skippable frame carrying `payload`. */
function skippable(payload: Uint8Array, nibble = 0): Uint8Array {
  const head = new Uint8Array(8);
  const view = new DataView(head.buffer);
  view.setUint32(0, 0x184d2a50 + nibble, true);
  view.setUint32(4, payload.length, true);
  return concat(head, payload);
}

/**
 * Rewrites a single frame's header to drop Frame_Content_Size (as streaming compressors
 * write it), with the given window log. The blocks do not depend on the header.
 */
function withoutContentSize(frame: Uint8Array, windowLog: number): Uint8Array {
  const descriptor = frame[4];
  const single = (descriptor & 0x20) !== 0;
  const fcsFlag = descriptor >> 6;
  const fcsSize = fcsFlag === 0 ? (single ? 1 : 0) : [0, 2, 4, 8][fcsFlag];
  const dictSize = [0, 1, 2, 4][descriptor & 3];
  const headerEnd = 5 + (single ? 0 : 1) + dictSize + fcsSize;
  const header = new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, descriptor & 0x07, (windowLog - 10) << 3]);
  return concat(header, frame.subarray(5 + (single ? 0 : 1) + dictSize, 5 + (single ? 0 : 1) + dictSize), frame.subarray(headerEnd));
}

function expectZarrError(fn: () => unknown, codes: string[]): ZarrError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ZarrError);
    expect(codes).toContain((error as ZarrError).code);
    return error as ZarrError;
  }
  throw new Error("expected a ZarrError");
}

describe("zstdDecompress reads libzstd output", () => {
  const arrays = sampleArrays(150_000, 11);
  const levels = [-5, 1, 3, 9, 19, 22];
  const items = Object.values(arrays).flatMap((data) => levels.map((level) => ({ data, level })));
  let cache: Uint8Array[] | undefined;
  // Encoded lazily inside the tests, so a machine without Python skips them instead of failing.
  const encodedAll = () => (cache ??= libzstdEncode(items));

  it("numcodecs.Zstd(level).encode for several levels and data kinds", () => {
    items.forEach((item, i) => {
      expect(sameBytes(zstdDecompress(encodedAll()[i]), item.data), `level ${item.level}`).toBe(true);
    });
  });

  it("multiple concatenated frames with skippable frames between them", () => {
    const a = encodedAll()[0];
    const b = encodedAll()[7];
    const c = encodedAll()[14];
    const stream = concat(skippable(new Uint8Array([1, 2, 3]), 5), a, b, skippable(new Uint8Array(0), 15), c);
    const expected = concat(items[0].data, items[7].data, items[14].data);
    expect(sameBytes(zstdDecompress(stream), expected)).toBe(true);
    expect(zstdDecompress(stream, expected.length).length).toBe(expected.length);
    // Only skippable frames: no content.
    expect(zstdDecompress(skippable(new Uint8Array(10))).length).toBe(0);
  });

  it("frames without Frame_Content_Size, small and huge declared windows", () => {
    for (const [i, windowLog] of [
      [0, 21],
      [5, 10 + 31],
      [9, 17],
    ] as const) {
      const frame = withoutContentSize(encodedAll()[i], windowLog);
      expect(sameBytes(zstdDecompress(frame), items[i].data)).toBe(true);
    }
    // Mixed with a sized frame.
    const mixed = concat(withoutContentSize(encodedAll()[2], 22), encodedAll()[3]);
    expect(sameBytes(zstdDecompress(mixed), concat(items[2].data, items[3].data))).toBe(true);
  });

  it.skipIf(ZSTD_CLI === undefined)("zstd CLI output: checksummed frames and streamed frames without content size", () => {
    const data = arrays.float32Temperatures;
    for (const level of [1, 3, 19]) {
      // Piped input has no known size: the CLI streams (no Frame_Content_Size) with a checksum.
      const streamed = zstdCli([`-${level}`, "-c", "-q", "--check"], data);
      expect(streamed[4] >> 6).toBe(0);
      expect(streamed[4] & 0x04).toBe(0x04);
      expect(sameBytes(zstdDecompress(streamed), data)).toBe(true);
    }
    const noCheck = zstdCli(["-3", "-c", "-q", "--no-check"], arrays.text);
    expect(sameBytes(zstdDecompress(noCheck), arrays.text)).toBe(true);
  });

  it.skipIf(ZSTD_CLI === undefined)("a libzstd checksum that does not match → CHECKSUM_MISMATCH", () => {
    const data = arrays.text;
    const frame = zstdCli(["-3", "-c", "-q", "--check"], data);
    const bad = frame.slice();
    bad[bad.length - 1] ^= 0x01;
    expectZarrError(() => zstdDecompress(bad), ["CHECKSUM_MISMATCH"]);
  });
});

describe("zstdDecompress verifies checksums and sizes", () => {
  const data = sampleArrays(40_000, 2).int16Counts;

  it("detects a corrupted checksum and corrupted content under a checksum", () => {
    const frame = zstdCompress(data, 3, true);
    const badSum = frame.slice();
    badSum[badSum.length - 2] ^= 0x40;
    const e = expectZarrError(() => zstdDecompress(badSum), ["CHECKSUM_MISMATCH"]);
    expect(e.message).toContain("checksum mismatch");
    // A raw block: flipping a content byte still parses, only the checksum catches it.
    const r = rng(3);
    const noise = Uint8Array.from({ length: 1000 }, () => Math.floor(r() * 256));
    const raw = zstdCompress(noise, 1, true);
    // Magic, descriptor, 2-byte size, then the block header: a raw block (type 0).
    expect((raw[7] >> 1) & 3).toBe(0);
    const flipped = raw.slice();
    flipped[20] ^= 0xff;
    expectZarrError(() => zstdDecompress(flipped), ["CHECKSUM_MISMATCH"]);
  });

  it("checks expectedSize", () => {
    const frame = zstdCompress(data, 3);
    expect(zstdDecompress(frame, data.length).length).toBe(data.length);
    expectZarrError(() => zstdDecompress(frame, data.length - 1), ["CODEC_FAILED"]);
    expectZarrError(() => zstdDecompress(frame, -1), ["INVALID_ARGUMENT"]);
  });

  it("rejects absurd declared sizes before allocating", () => {
    // A header claiming 2^40 bytes with one tiny raw block.
    const huge = new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 0xc0 | 0x20, 0, 0, 0, 0, 0, 1, 0, 0, 0x19, 0, 0, 1, 2, 3]);
    const e = expectZarrError(() => zstdDecompress(huge), ["CODEC_FAILED"]);
    expect(e.message).toMatch(/declares|limit/);
    // 4 GiB declared in a 4-byte field, one RLE block of 10 bytes.
    const big = new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 0x80 | 0x20, 0xff, 0xff, 0xff, 0xff, 0x53, 0, 0, 7]);
    expectZarrError(() => zstdDecompress(big), ["CODEC_FAILED"]);
    // A streamed frame declaring a 3.75 TB window decodes without allocating it.
    const tiny = zstdCompress(new TextEncoder().encode("tiny"), 3);
    const windowed = withoutContentSize(tiny, 10 + 31);
    expect(new TextDecoder().decode(zstdDecompress(windowed))).toBe("tiny");
  });

  it("rejects frames that need a dictionary", () => {
    const frame = new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 0x20 | 0x01, 0x07, 3, 0x19, 0, 0, 1, 2, 3]);
    expectZarrError(() => zstdDecompress(frame), ["UNSUPPORTED"]);
  });
});

describe("zstdDecompress fails cleanly on bad input", () => {
  const samples = [
    zstdCompress(sampleArrays(30_000, 4).float32Temperatures, 3, true),
    zstdCompress(sampleArrays(30_000, 5).text, 9, false),
    // (a libzstd frame joins these in the tests that have Python; see below)
  ];

  it("empty input, bad magic, reserved bits, trailing garbage", () => {
    expectZarrError(() => zstdDecompress(new Uint8Array(0)), ["CODEC_FAILED"]);
    expectZarrError(() => zstdDecompress(new TextEncoder().encode("not zstd at all")), ["CODEC_FAILED"]);
    const reserved = samples[0].slice();
    reserved[4] |= 0x08;
    expectZarrError(() => zstdDecompress(reserved), ["CODEC_FAILED"]);
    expectZarrError(() => zstdDecompress(concat(samples[1], new Uint8Array([1, 2]))), ["CODEC_FAILED"]);
  });

  it("every truncation of a frame fails with CODEC_FAILED", () => {
    for (const frame of samples) {
      for (let len = 0; len < frame.length; len += len < 64 ? 1 : 97) {
        expectZarrError(() => zstdDecompress(frame.subarray(0, len)), ["CODEC_FAILED"]);
      }
    }
  });

  it("every truncation of a libzstd frame fails with CODEC_FAILED", () => {
    const frame = libzstdEncode([{ data: sampleArrays(30_000, 6).int16Counts, level: 5 }])[0];
    for (let len = 0; len < frame.length; len += len < 64 ? 1 : 97) {
      expectZarrError(() => zstdDecompress(frame.subarray(0, len)), ["CODEC_FAILED"]);
    }
  });

  it("property: random corruption either decodes or throws a ZarrError (never a bare error)", () => {
    const r = rng(5);
    fc.assert(
      fc.property(
        fc.constantFrom(...samples),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 4 }),
        (frame, flips) => {
          const bad = frame.slice();
          for (const [at, mask] of flips) bad[at % bad.length] ^= mask;
          try {
            zstdDecompress(bad);
          } catch (error) {
            if (!(error instanceof ZarrError)) throw error;
            expect(["CODEC_FAILED", "CHECKSUM_MISMATCH", "UNSUPPORTED"]).toContain(error.code);
          }
        },
      ),
      { numRuns: 400, seed: Math.floor(r() * 1e6) },
    );
  });
});
