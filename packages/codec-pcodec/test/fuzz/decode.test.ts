/**
 * Fuzz properties of the pcodec decoder (FUZZ_RUNS=… for more runs, as for every codec's
 * fuzz tests; see scripts/codec-fuzz.mjs): random, truncated and bit-flipped streams
 * decode within the bound or fail with a coded ZarrError, never a crash or a hang.
 */
import { ZarrError } from "@zarr/spec";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FUZZ_RUNS } from "../../../../scripts/codec-fuzz.mjs";
import { pcoCompress, pcoDecompress } from "../../src/index.js";
import { EXPECTED, fixture } from "../expected.js";

const SEED = process.env.FUZZ_SEED === undefined ? 0x5eed : Number(process.env.FUZZ_SEED);
const params = { numRuns: FUZZ_RUNS, seed: SEED };
const TIMEOUT = Math.max(60_000, FUZZ_RUNS * 100);
const FILES = Object.keys(EXPECTED).map(fixture);
/** A standalone v3 header (no uniform type, 1-bit size hint, format 4.1): random bytes after it reach the chunk parser. */
const HEADER = Uint8Array.of(0x70, 0x63, 0x6f, 0x21, 3, 0, 0, 4, 1);

/** Decodes; a result must fit the bound, a failure must be a CODEC_FAILED ZarrError. */
function decodeChecked(input: Uint8Array, bound: number): void {
  let values: { byteLength: number } | undefined;
  try {
    values = pcoDecompress(input, { key: "fuzz/c/0", maxDecodedBytes: bound }).values;
  } catch (error) {
    if (!(error instanceof ZarrError) || error.code !== "CODEC_FAILED") {
      throw new Error(`decode threw something other than a CODEC_FAILED ZarrError: ${(error as Error)?.stack ?? error}`);
    }
    expect(error.key).toBe("fuzz/c/0");
    return;
  }
  expect(values.byteLength).toBeLessThanOrEqual(bound);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

describe("pcoDecompress on bad input", () => {
  it("random bytes decode within the bound or fail with a coded error", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 1024 }), fc.integer({ min: 0, max: 1 << 16 }), (input, bound) => decodeChecked(input, bound)),
      params,
    );
  }, TIMEOUT);

  it("random chunks after a valid header decode within the bound or fail with a coded error", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 1024 }), fc.integer({ min: 0, max: 1 << 20 }), (body, bound) => decodeChecked(concat(HEADER, body), bound)),
      params,
    );
  }, TIMEOUT);

  it("bit-flipped compatibility files decode within the bound or fail with a coded error", () => {
    fc.assert(
      fc.property(fc.nat(FILES.length - 1), fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), (f, flips) => {
        const bytes = FILES[f].slice();
        if (bytes.length === 0) return;
        for (const flip of flips) bytes[(flip >>> 3) % bytes.length] ^= 1 << (flip & 7);
        decodeChecked(bytes, 1 << 16);
      }),
      params,
    );
  }, TIMEOUT);

  it("truncated, bit-flipped encoder output decodes within the bound or fails with a coded error", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 4, maxLength: 512 }), fc.nat(), fc.array(fc.nat(), { maxLength: 3 }), (raw, cut, flips) => {
        const values = new Int32Array(raw.slice(0, raw.length & ~3).buffer);
        const bytes = pcoCompress(values, "i32", { equalPagesUpTo: 40 }).slice();
        for (const flip of flips) bytes[(flip >>> 3) % bytes.length] ^= 1 << (flip & 7);
        decodeChecked(bytes.subarray(0, cut % (bytes.length + 1)), raw.length);
      }),
      params,
    );
  }, TIMEOUT);
});
