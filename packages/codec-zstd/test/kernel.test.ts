/**
 * The WebAssembly decoder (wasm/zstd-decode.c) against the TypeScript decoder: the same bytes
 * for every frame (libzstd through numcodecs at levels 1…19 with and without checksums, the
 * zstd CLI, this package's encoder, hand-made frames, boundary cases) and the same error codes
 * for corrupt, truncated and random input. Each case runs once with kernels off and once on.
 */
import { setWasmKernels } from "@zarr/spec";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { kernelDecode } from "../src/decoder/kernel.js";
import { createZstdCodec, zstdCompress, zstdDecompress, zstdDecompressInto } from "../src/index.js";
import { zstdChecksum } from "../src/xxh64.js";
import { byteFlips, flipBytes, structuredData as structured } from "./arbitraries.js";
import { concat, rleTablesFrame, streamedHeader } from "./frames.js";
import { type Fixture, libzstdEncode, libzstdFixtures, rng, sameBytes, sampleArrays, ZSTD_CLI, zstdCli } from "./reference.js";
import { samePaths } from "./same-paths.js";

afterEach(() => setWasmKernels(true));

/** Decodes `frame` both ways and checks the result is `data`. */
function expectDecodes(frame: Uint8Array, data: Uint8Array, name: string): void {
  const result = samePaths(() => zstdDecompress(frame), name);
  expect("bytes" in result && sameBytes(result.bytes, data), `${name}: ${"code" in result ? result.message : "wrong bytes"}`).toBe(true);
}

/** `frame` (one frame, no checksum) with the checksum flag set and XXH64 of `data` appended. */
function withChecksum(frame: Uint8Array, data: Uint8Array): Uint8Array {
  const out = concat(frame, new Uint8Array(4));
  out[4] |= 0x04;
  new DataView(out.buffer).setUint32(frame.length, zstdChecksum(data), true);
  return out;
}

let payloadCache: Record<string, Uint8Array> | undefined;
/** Array-like payloads, one over a block, plus long runs and random bytes. */
function payloads(): Record<string, Uint8Array> {
  if (payloadCache === undefined) {
    const r = rng(99);
    const runs = new Uint8Array(150_000);
    for (let at = 0; at < runs.length; at += 1000) runs.fill(Math.floor(r() * 4), at, at + 1 + Math.floor(r() * 999));
    payloadCache = {
      ...sampleArrays(160_000, 3),
      runs,
      random: Uint8Array.from({ length: 20_000 }, () => Math.floor(r() * 256)),
    };
  }
  return payloadCache;
}

let libzstdCache: Fixture[] | undefined;
/** numcodecs (libzstd) at every level 1…19, each frame also with a checksum appended. */
function libzstdCorpus(): Fixture[] {
  // Slow levels on two payloads only (they still bring repeat modes and treeless literals).
  const levels = (name: string) => Array.from({ length: name === "text" || name === "float32Temperatures" ? 19 : 12 }, (_, i) => i + 1);
  libzstdCache ??= libzstdFixtures(payloads(), levels, "numcodecs ").flatMap((f) => [
    f,
    { name: `${f.name} + checksum`, data: f.data, frame: withChecksum(f.frame, f.data) },
  ]);
  return libzstdCache;
}

let oursCache: Fixture[] | undefined;
function ourFixtures(): Fixture[] {
  oursCache ??= Object.entries(payloads()).flatMap(([name, data]) =>
    [-5, 1, 3, 9, 19].map((level) => ({ name: `ours ${name} level ${level}`, data, frame: zstdCompress(data, level, level % 2 !== 0) })),
  );
  return oursCache;
}

describe("the WebAssembly decoder runs", () => {
  it("decodes a frame into its span (the kernel, not the fallback)", () => {
    const data = payloads().text;
    const outcome = kernelDecode(zstdCompress(data, 3), data.length, undefined, "test");
    expect(outcome?.ok).toBe(true);
    expect(outcome?.ok === true && sameBytes(outcome.bytes, data)).toBe(true);
  });
});

describe("WebAssembly and TypeScript decoders give the same bytes", () => {
  it("numcodecs (libzstd) frames at every level 1…19, with and without checksum", () => {
    for (const f of libzstdCorpus()) expectDecodes(f.frame, f.data, f.name);
  });

  it("this package's encoder at several levels, and streamed (size-less) rewrites", () => {
    for (const f of ourFixtures()) {
      expectDecodes(f.frame, f.data, f.name);
      expectDecodes(streamedHeader(f.frame, 20), f.data, `${f.name}, streamed`);
    }
  });

  it.skipIf(ZSTD_CLI === undefined)("zstd CLI frames: libzstd checksums, streamed frames, small windows and blocks", () => {
    const variants = [["-1"], ["-9"], ["-19"], ["--zstd=wlog=10"], ["-3", "--target-compressed-block-size=2000"], ["--no-check", "-5"]];
    for (const [name, data] of Object.entries(payloads())) {
      for (const args of variants) expectDecodes(zstdCli([...args, "-c", "-q"], data), data, `cli ${name} ${args.join(" ")}`);
    }
  });

  it("the hand-built frame (RLE literals and tables, Repeat_Mode, 3-byte sequence count)", () => {
    const c = rleTablesFrame();
    expectDecodes(c.frame, c.data, c.name);
  });

  it("boundary cases: empty and 1-byte content, blocks of exactly 128 KiB, a window larger than the output", () => {
    const r = rng(5);
    const random = (n: number) => Uint8Array.from({ length: n }, () => Math.floor(r() * 256));
    const [emptyLib, oneLib] = libzstdEncode([
      { data: new Uint8Array(0), level: 3 },
      { data: new Uint8Array([42]), level: 3 },
    ]);
    expectDecodes(emptyLib, new Uint8Array(0), "numcodecs empty");
    expectDecodes(oneLib, new Uint8Array([42]), "numcodecs 1 byte");
    for (const checksum of [false, true]) {
      expectDecodes(zstdCompress(new Uint8Array(0), 3, checksum), new Uint8Array(0), "ours empty");
      expectDecodes(zstdCompress(new Uint8Array([7]), 3, checksum), new Uint8Array([7]), "ours 1 byte");
    }
    // A raw block of exactly 128 KiB, a compressed one, and one byte more.
    const text = payloads().text;
    for (const n of [131_072, 131_073, 2 * 131_072]) {
      for (const data of [random(n), text.subarray(0, n)]) {
        expectDecodes(zstdCompress(data, 1), data, `${n} bytes`);
        expectDecodes(streamedHeader(zstdCompress(data, 1), 17), data, `${n} bytes, 128 KiB window`);
      }
    }
    // Windows of 2^27 and 2^10 bytes around small outputs.
    expectDecodes(streamedHeader(zstdCompress(text.subarray(0, 500), 3), 27), text.subarray(0, 500), "window 2^27, 500 bytes");
    expectDecodes(streamedHeader(zstdCompress(new Uint8Array([1]), 3), 27), new Uint8Array([1]), "window 2^27, 1 byte");
  });

  it("several frames with skippable frames between, and frames without a size that outgrow the first span", () => {
    const lib = libzstdCorpus();
    const ours = ourFixtures();
    const skippable = new Uint8Array([0x5e, 0x2a, 0x4d, 0x18, 2, 0, 0, 0, 1, 2]);
    const picks = [lib[4], ours[7], rleTablesFrame(), lib[31]];
    const stream = concat(picks[0].frame, skippable, streamedHeader(picks[1].frame, 22), picks[2].frame, skippable, picks[3].frame);
    expectDecodes(stream, concat(...picks.map((p) => p.data)), "mixed frames");
    expectDecodes(skippable, new Uint8Array(0), "only a skippable frame");
    // 6 MiB of runs in a frame of a few KB without a declared size: the first span (1 MiB) is
    // decoded into again at 2, 4 and 8 MiB.
    const big = new Uint8Array(6 << 20);
    for (let i = 0; i < big.length; i += 4096) big[i] = i >> 12;
    expectDecodes(streamedHeader(zstdCompress(big, 3), 23), big, "6 MiB streamed");
  });

  it("decodeInto and the codec's bounds: scratch buffers, maxDecodedBytes, expected sizes", () => {
    const codec = createZstdCodec();
    const f = ourFixtures()[2];
    const n = f.data.length;
    const decodeInto = codec.decodeInto as NonNullable<typeof codec.decodeInto>;
    for (const frame of [f.frame, streamedHeader(f.frame, 20)]) {
      const scratch = new Uint8Array(n + 10);
      const into = samePaths(() => decodeInto(frame, scratch, { key: "c/0" }) as Uint8Array, "decodeInto");
      expect("bytes" in into && sameBytes(into.bytes, f.data)).toBe(true);
      samePaths(() => codec.decode(frame, { key: "c/1", maxDecodedBytes: n }) as Uint8Array, "bound = size");
      const over = samePaths(() => codec.decode(frame, { key: "c/2", maxDecodedBytes: n - 1 }) as Uint8Array, "bound below size");
      expect("code" in over && over.code === "CODEC_FAILED" && over.message.includes('"c/2"')).toBe(true);
      samePaths(() => zstdDecompress(frame, n + 1), "expected size too large");
      samePaths(() => zstdDecompress(frame, n - 1), "expected size too small");
      const window = new Uint8Array(n);
      samePaths(() => {
        zstdDecompressInto(frame, window);
        return window;
      }, "zstdDecompressInto");
    }
  });
});

/** A frame header (single segment, 2-byte content size) and one compressed block of `body`. */
function garbageFrame(contentSize: number, body: Uint8Array, checksum: boolean): Uint8Array {
  const size = contentSize - 256;
  const header = new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 0x60 | (checksum ? 4 : 0), size & 0xff, size >> 8]);
  const block = new Uint8Array([(body.length << 3) | 5, body.length >> 5, body.length >> 13]);
  return concat(header, block, body, checksum ? new Uint8Array([1, 2, 3, 4]) : new Uint8Array(0));
}

describe("WebAssembly and TypeScript decoders agree on random input (property tests)", () => {
  it("our encoder at random levels, with and without checksum, sizes from 0", () => {
    fc.assert(
      fc.property(structured, fc.constantFrom(-7, -1, 1, 3, 5, 9, 19), fc.boolean(), (data, level, checksum) => {
        const frame = zstdCompress(data, level, checksum);
        expectDecodes(frame, data, `level ${level}`);
        expectDecodes(streamedHeader(frame, 17 + (data.length % 8)), data, `level ${level}, streamed`);
      }),
      { numRuns: 150, seed: 2201 },
    );
  });

  it("libzstd on random structured inputs at random levels 1…19", () => {
    const inputs = fc.sample(fc.tuple(structured, fc.integer({ min: 1, max: 19 })), { numRuns: 60, seed: 77 });
    const frames = libzstdEncode(inputs.map(([data, level]) => ({ data, level })));
    inputs.forEach(([data, level], i) => {
      expectDecodes(frames[i], data, `numcodecs level ${level}, ${data.length} bytes`);
    });
  });

  it("random bytes, and random blocks behind a valid frame header, give the same error codes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        samePaths(() => zstdDecompress(bytes), "random bytes");
      }),
      { numRuns: 300, seed: 3 },
    );
    // Half behind a frame of 3 000 bytes: matches must not reach into an earlier frame's output.
    const before = zstdCompress(payloads().text.subarray(0, 3000), 3);
    fc.assert(
      fc.property(
        fc.integer({ min: 256, max: 66_000 }),
        fc.uint8Array({ minLength: 1, maxLength: 400 }),
        fc.boolean(),
        fc.boolean(),
        (size, body, checksum, second) => {
          const frame = garbageFrame(size, body, checksum);
          samePaths(() => zstdDecompress(second ? concat(before, frame) : frame), "random block");
        },
      ),
      { numRuns: 2000, seed: 4 },
    );
  });

  it("a match reaching before its frame's start fails on both paths, also behind another frame", () => {
    // The hand-built frame with literal-length code 0: its first match uses repeat offset 2 (4)
    // with no output before it in the frame.
    const bad = rleTablesFrame().frame.slice();
    bad[12 + 8] = 0;
    for (const input of [bad, concat(zstdCompress(new Uint8Array(100), 1), bad)]) {
      const result = samePaths(() => zstdDecompress(input), "offset before the frame");
      expect("code" in result && result.code).toBe("CODEC_FAILED");
    }
  });

  it("a stored checksum that differs from the data's gives CHECKSUM_MISMATCH on both paths", () => {
    const checksummed = [...libzstdCorpus(), ...ourFixtures()].filter((f) => (f.frame[4] & 0x04) !== 0);
    expect(checksummed.length).toBeGreaterThan(50);
    for (const f of checksummed) {
      const bad = f.frame.slice();
      bad[bad.length - 1 - (f.data.length % 4)] ^= 0x10;
      const result = samePaths(() => zstdDecompress(bad), f.name);
      expect("code" in result && result.code, f.name).toBe("CHECKSUM_MISMATCH");
    }
  });

  it("flipped bytes and truncations of libzstd and our frames give the same bytes or the same error codes", () => {
    const frames = [...libzstdCorpus(), ...ourFixtures()].filter((_, i) => i % 3 === 0).map((f) => f.frame);
    fc.assert(
      fc.property(fc.constantFrom(...frames), byteFlips, (frame, flips) => {
        const bad = flipBytes(frame, flips, 1024);
        samePaths(() => zstdDecompress(bad), "flipped");
      }),
      { numRuns: 1500, seed: 42 },
    );
    fc.assert(
      fc.property(fc.constantFrom(...frames), fc.nat(), (frame, cut) => {
        samePaths(() => zstdDecompress(frame.subarray(0, cut % frame.length)), "truncated");
      }),
      { numRuns: 300, seed: 43 },
    );
  });
});
