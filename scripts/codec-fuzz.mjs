// Property tests every codec package runs on its decoders (test/fuzz/*.test.ts): random,
// truncated, bit-flipped and oversized inputs must give a decoded value within the bound or a
// coded ZarrError, never a crash, a hang or an unbounded allocation. Plain JS so every
// package's tests can import it. Runs per property: $FUZZ_RUNS (default 100, a few seconds
// per codec); a nightly job sets e.g. FUZZ_RUNS=20000 (see the "Fuzzing" section of the root README).
import fc from "fast-check";
import { expect, it } from "vitest";

/** Runs per property: `FUZZ_RUNS` from the environment, else 100. */
export const FUZZ_RUNS = Math.max(1, Number(process.env.FUZZ_RUNS ?? 100) || 100);
/** A fixed seed unless `FUZZ_SEED` is set: CI failures replay exactly. */
const SEED = process.env.FUZZ_SEED === undefined ? 0x5eed : Number(process.env.FUZZ_SEED);
/** Per-test timeout, scaled with the runs (the default runs finish in seconds). */
const TIMEOUT = Math.max(60_000, FUZZ_RUNS * 100);

/** Error codes a decoder may fail with on bad input. */
const DECODE_CODES = new Set(["CODEC_FAILED", "CHECKSUM_MISMATCH", "UNSUPPORTED"]);

/** Decoded data to encode: random bytes, or a short pattern repeated (compressible, like chunks). */
export const chunkData = fc.oneof(
  fc.uint8Array({ minLength: 0, maxLength: 2048 }),
  fc
    .tuple(fc.uint8Array({ minLength: 1, maxLength: 16 }), fc.integer({ min: 1, max: 512 }))
    .map(([pattern, times]) => {
      const out = new Uint8Array(pattern.length * times);
      for (let i = 0; i < times; i++) out.set(pattern, i * pattern.length);
      return out;
    }),
);

/**
 * Decodes and says what happened: `{bytes}`, or `{error}` when it threw a ZarrError with a
 * decoding code. Anything else (a TypeError, a RangeError, a result past the bound — or,
 * for codecs that do not take the bound, longer than the input) fails.
 */
async function decodeChecked(codec, input, bound, honoursBound = true) {
  let out;
  try {
    out = await codec.decode(input, { key: "fuzz/c/0", maxDecodedBytes: bound });
  } catch (error) {
    const coded = error?.name === "ZarrError" && DECODE_CODES.has(error.code);
    if (!coded) throw new Error(`decode threw something other than a coded ZarrError: ${error?.stack ?? error}`);
    return { error };
  }
  if (!(out instanceof Uint8Array)) throw new Error(`decode returned ${Object.prototype.toString.call(out)}`);
  // Codecs that never grow their input (checksums, shuffles) leave the bound to the pipeline.
  const limit = honoursBound ? bound : input.length;
  if (out.length > limit) throw new Error(`decode returned ${out.length} bytes, over the ${limit}-byte bound`);
  return { bytes: out };
}

/**
 * Registers the fuzz properties of one bytes→bytes codec (call inside a `describe`).
 * `honoursBound`: the codec bounds its own output (compressors); false for codecs whose
 * output is never larger than their input (checksums, shuffles), which the pipeline checks.
 * `data`: the decoded data to encode (default {@link chunkData}).
 */
export function codecFuzzProperties(codec, options = {}) {
  const honoursBound = options.honoursBound ?? true;
  const data = options.data ?? chunkData;
  const params = { numRuns: FUZZ_RUNS, seed: SEED };

  it("round-trips, decoding against the exact size", async () => {
    await fc.assert(
      fc.asyncProperty(data, async (bytes) => {
        const packed = await codec.encode(bytes.slice(), { key: "fuzz/c/0" });
        const out = await decodeChecked(codec, packed, bytes.length);
        expect(out.error).toBeUndefined();
        expect(Buffer.compare(Buffer.from(out.bytes), Buffer.from(bytes))).toBe(0);
      }),
      params,
    );
  }, TIMEOUT);

  it("random input decodes within the bound or fails with a coded error", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 1024 }), fc.integer({ min: 0, max: 1 << 16 }), async (input, bound) => {
        await decodeChecked(codec, input, bound, honoursBound);
      }),
      params,
    );
  }, TIMEOUT);

  it("truncated input decodes within the bound or fails with a coded error", async () => {
    await fc.assert(
      fc.asyncProperty(data, fc.nat(), async (bytes, cut) => {
        const packed = await codec.encode(bytes.slice(), { key: "fuzz/c/0" });
        await decodeChecked(codec, packed.subarray(0, cut % Math.max(1, packed.length)), bytes.length, honoursBound);
      }),
      params,
    );
  }, TIMEOUT);

  it("bit-flipped input decodes within the bound or fails with a coded error", async () => {
    await fc.assert(
      fc.asyncProperty(data, fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), async (bytes, flips) => {
        const packed = (await codec.encode(bytes.slice(), { key: "fuzz/c/0" })).slice();
        if (packed.length === 0) return;
        for (const f of flips) packed[(f >>> 3) % packed.length] ^= 1 << (f & 7);
        await decodeChecked(codec, packed, bytes.length, honoursBound);
      }),
      params,
    );
  }, TIMEOUT);

  if (!honoursBound) return;
  it("input that decodes past the bound (an oversized header or body) fails with CODEC_FAILED", async () => {
    await fc.assert(
      fc.asyncProperty(
        data.filter((b) => b.length > 0),
        fc.nat(),
        async (bytes, b) => {
          const bound = b % bytes.length; // always smaller than the data
          const packed = await codec.encode(bytes.slice(), { key: "fuzz/c/0" });
          const out = await decodeChecked(codec, packed, bound);
          expect(out.error?.code).toBe("CODEC_FAILED");
        },
      ),
      params,
    );
  }, TIMEOUT);
}
