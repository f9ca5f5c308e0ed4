/** The inner formats written in this package: BloscLZ and Snappy round trips and corrupt input. */
import { ZarrError } from "@zarr/spec";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { blosclzCompressInto, blosclzDecompressInto } from "../src/blosclz.js";
import { snappyCompressInto, snappyDecompressInto, snappyMaxCompressedLength } from "../src/snappy.js";
import { makeData, sameBytes } from "./helpers.js";

const inputs = fc.oneof(
  fc.uint8Array({ maxLength: 3000 }),
  fc.record({ n: fc.integer({ min: 0, max: 200_000 }), seed: fc.integer() }).map(({ n, seed }) => makeData(n, seed)),
  fc
    .record({ pat: fc.uint8Array({ minLength: 1, maxLength: 5 }), n: fc.integer({ min: 1, max: 20_000 }) })
    .map(({ pat, n }) => Uint8Array.from({ length: n }, (_, i) => pat[i % pat.length])),
);

function failsCleanly(f: () => unknown): void {
  try {
    f();
  } catch (error) {
    expect(error).toBeInstanceOf(ZarrError);
    expect((error as ZarrError).code).toBe("CODEC_FAILED");
  }
}

describe("BloscLZ", () => {
  it("round trips (stream smaller than the input, or 0 = store raw)", () => {
    fc.assert(
      fc.property(inputs, (data) => {
        const out = new Uint8Array(data.length + 64);
        const n = blosclzCompressInto(data, 0, data.length, out, 0, data.length);
        if (n === 0) return;
        expect(n).toBeLessThanOrEqual(data.length);
        const back = new Uint8Array(data.length);
        expect(blosclzDecompressInto(out.subarray(0, n), back, 0, back.length)).toBe(data.length);
        expect(sameBytes(back, data)).toBe("equal");
      }),
      { numRuns: 200 },
    );
  });

  it("uses far matches (distances beyond 8191)", () => {
    const pattern = makeData(20_000, 3);
    const data = new Uint8Array(60_000);
    data.set(pattern, 0);
    data.set(pattern, 40_000);
    const out = new Uint8Array(data.length);
    const n = blosclzCompressInto(data, 0, data.length, out, 0, data.length);
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThan(50_000);
    const back = new Uint8Array(data.length);
    blosclzDecompressInto(out.subarray(0, n), back, 0, back.length);
    expect(sameBytes(back, data)).toBe("equal");
  });

  it("corrupt streams throw CODEC_FAILED", () => {
    const data = makeData(5000, 9);
    const out = new Uint8Array(5000);
    const n = blosclzCompressInto(data, 0, data.length, out, 0, data.length);
    fc.assert(
      fc.property(fc.nat(n - 1), fc.integer({ min: 0, max: 255 }), fc.nat(n), (at, v, cut) => {
        const bad = out.slice(0, Math.max(1, cut));
        if (at < bad.length) bad[at] = v;
        failsCleanly(() => blosclzDecompressInto(bad, new Uint8Array(5000), 0, 5000));
      }),
      { numRuns: 1000 },
    );
    expect(() => blosclzDecompressInto(new Uint8Array(0), new Uint8Array(10), 0, 10)).toThrow(ZarrError);
    // A match reaching before the start of the output.
    expect(() => blosclzDecompressInto(Uint8Array.of(0x20, 65, 0x20, 5), new Uint8Array(10), 0, 10)).toThrow(
      /before the start/,
    );
  });
});

describe("Snappy", () => {
  it("round trips", () => {
    fc.assert(
      fc.property(inputs, (data) => {
        const out = new Uint8Array(snappyMaxCompressedLength(data.length));
        const n = snappyCompressInto(data, 0, data.length, out, 0, out.length);
        expect(n).toBeGreaterThan(0);
        const back = new Uint8Array(data.length);
        expect(snappyDecompressInto(out.subarray(0, n), back, 0, back.length)).toBe(data.length);
        expect(sameBytes(back, data)).toBe("equal");
      }),
      { numRuns: 200 },
    );
  });

  it("corrupt streams throw CODEC_FAILED", () => {
    const data = makeData(5000, 4);
    const out = new Uint8Array(snappyMaxCompressedLength(5000));
    const n = snappyCompressInto(data, 0, data.length, out, 0, out.length);
    fc.assert(
      fc.property(fc.nat(n - 1), fc.integer({ min: 0, max: 255 }), fc.nat(n), (at, v, cut) => {
        const bad = out.slice(0, cut);
        if (at < bad.length) bad[at] = v;
        failsCleanly(() => snappyDecompressInto(bad, new Uint8Array(5000), 0, 5000));
      }),
      { numRuns: 1000 },
    );
  });
});
