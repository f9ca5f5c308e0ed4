/**
 * Fuzz properties of the ZFP decoder (FUZZ_RUNS=… for more runs, as for every codec; see
 * scripts/codec-fuzz.mjs): random, header-shaped, bit-flipped and truncated streams give
 * an array within the bound or a coded ZarrError, never another exception or a hang.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FUZZ_RUNS } from "../../../../scripts/codec-fuzz.mjs";
import { zfpDecompress } from "../../src/index.js";

const DIR = join(import.meta.dirname, "..", "..", "test-data", "vectors");
const STREAMS = readdirSync(DIR)
  .filter((f) => f.endsWith(".zfp"))
  .map((f) => new Uint8Array(readFileSync(join(DIR, f))));
const BOUND = 1 << 20;
const params = { numRuns: FUZZ_RUNS, seed: 0x5eed };
const TIMEOUT = Math.max(60_000, FUZZ_RUNS * 100);

/** Decodes; only a coded ZarrError may escape, and the output stays within the bound. */
function decodeChecked(input: Uint8Array): void {
  try {
    const out = zfpDecompress(input, { key: "fuzz/c/0", maxOutputBytes: BOUND });
    expect(out.data.byteLength).toBeLessThanOrEqual(BOUND);
  } catch (error) {
    const e = error as { name?: string; code?: string; stack?: string };
    if (e?.name !== "ZarrError" || (e.code !== "CODEC_FAILED" && e.code !== "UNSUPPORTED")) {
      throw new Error(`decode threw something other than a coded ZarrError: ${e?.stack ?? error}`);
    }
  }
}

describe("zfpDecompress", () => {
  it("random bytes", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 1024 }), (bytes) => decodeChecked(bytes)), params);
  }, TIMEOUT);

  it("random bytes behind a valid magic", () => {
    const magic = Uint8Array.of(0x7a, 0x66, 0x70, 5);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 1024 }), (bytes) => {
        const input = new Uint8Array(4 + bytes.length);
        input.set(magic);
        input.set(bytes, 4);
        decodeChecked(input);
      }),
      params,
    );
  }, TIMEOUT);

  it("bit-flipped zfpy streams", () => {
    fc.assert(
      fc.property(fc.nat(STREAMS.length - 1), fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), (which, flips) => {
        const input = STREAMS[which].slice();
        for (const f of flips) input[(f >>> 3) % input.length] ^= 1 << (f & 7);
        decodeChecked(input);
      }),
      params,
    );
  }, TIMEOUT);

  it("truncated zfpy streams fail with CODEC_FAILED", () => {
    fc.assert(
      fc.property(fc.nat(STREAMS.length - 1), fc.nat(), (which, cut) => {
        const stream = STREAMS[which];
        expect(() => zfpDecompress(stream.subarray(0, cut % stream.length))).toThrow(expect.objectContaining({ code: "CODEC_FAILED" }));
      }),
      params,
    );
  }, TIMEOUT);
});
