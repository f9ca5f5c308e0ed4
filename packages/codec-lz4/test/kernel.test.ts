/**
 * The WebAssembly kernel against the TypeScript path: the same bytes from the encoder, the
 * same decoded bytes, and the same errors (code and message) for corrupt chunks.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { setWasmKernels, wasmKernelsEnabled } from "@zarr/spec";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { fixturesDir } from "../../../scripts/test-env.mjs";
import { samePaths } from "../../../scripts/wasm-paths.mjs";
import { lz4CompressBlockHC, numcodecsLz4Decode, numcodecsLz4Encode } from "../src/index.js";
import { compressible, sampleInputs } from "./inputs.js";

const expectSamePaths = samePaths(setWasmKernels);

/** Inputs of every size class: empty, 1 byte, odd sizes, random bytes and compressible data. */
const anyInput = fc.oneof(compressible, fc.uint8Array({ maxLength: 5000 }), fc.constantFrom(...sampleInputs()));

/** A numcodecs lz4 chunk whose block was written by the HC encoder (long, overlapping matches). */
function framedHc(data: Uint8Array, level: number): Uint8Array {
  const block = lz4CompressBlockHC(data, level);
  const framed = new Uint8Array(4 + block.length);
  new DataView(framed.buffer).setUint32(0, data.length, true);
  framed.set(block, 4);
  return framed;
}

afterEach(() => setWasmKernels(true));

describe("the lz4 WebAssembly kernel", () => {
  it("runs in this runtime (Node.js 20 has WebAssembly SIMD)", () => {
    expect(wasmKernelsEnabled()).toBe(true);
  });

  it("encodes to the same bytes as the TypeScript encoder", () => {
    fc.assert(
      fc.property(anyInput, fc.integer({ min: 1, max: 20 }), (data, acceleration) => {
        expectSamePaths(() => numcodecsLz4Encode(data, acceleration));
      }),
      { numRuns: 300 },
    );
    for (const data of sampleInputs()) for (const acceleration of [0, 1, 8, 65537, 1e9]) expectSamePaths(() => numcodecsLz4Encode(data, acceleration));
  });

  it("decodes what both encoders write to the same bytes", () => {
    fc.assert(
      fc.property(anyInput, fc.integer({ min: 1, max: 12 }), (data, level) => {
        const fast = numcodecsLz4Encode(data, 1);
        expect(expectSamePaths(() => numcodecsLz4Decode(fast, "k"))).toEqual({ bytes: Buffer.from(data).toString("hex") });
        expectSamePaths(() => numcodecsLz4Decode(framedHc(data, level), "k"));
      }),
      { numRuns: 300 },
    );
  });

  it("reads the zarr-python v2 lz4 fixture the same way", () => {
    const chunk = new Uint8Array(readFileSync(join(fixturesDir(), "zarr-python/v2/data.zarr/1d.contiguous.lz4.i2/0")));
    expect(expectSamePaths(() => numcodecsLz4Decode(chunk, "1d.contiguous.lz4.i2/0"))).toHaveProperty("bytes");
  });

  it("fails on the same malformed blocks with the same errors", () => {
    const framed = (size: number, ...block: number[]) => {
      const out = new Uint8Array(4 + block.length);
      new DataView(out.buffer).setUint32(0, size, true);
      out.set(block, 4);
      return out;
    };
    const cases = [
      framed(10, 0x10, 65, 0, 0, 0x00), // offset 0
      framed(10, 0x10, 65, 2, 0, 0x00), // offset before the start
      framed(1000, 0xf0, 255, 255), // literal length past the end
      framed(5, 0x50, 1, 2), // literals past the end
      framed(4, 0x50, 1, 2, 3, 4, 5), // output too large
      framed(6, 0x50, 1, 2, 3, 4, 5), // output too small
      framed(6, 0x14, 65, 1, 0, 0x00), // a match past the output's end
      framed(100, 0x1f, 1, 1), // truncated offset
      framed(100, 0x1f, 1, 1, 0), // a block ending after a match
      framed(100, 0x1f, 1, 1, 0, 255, 255), // match length past the end
      framed(0), // no block
    ];
    for (const chunk of cases) expect(expectSamePaths(() => numcodecsLz4Decode(chunk, "c/7"))).toHaveProperty("code", "CODEC_FAILED");
  });

  it("gives the same outcome for mutated and truncated chunks", () => {
    const data = sampleInputs()[6].subarray(0, 3000);
    const chunks = [numcodecsLz4Encode(data, 1), framedHc(data, 9)];
    fc.assert(
      fc.property(
        fc.constantFrom(...chunks),
        fc.array(fc.record({ at: fc.nat(4000), value: fc.integer({ min: 0, max: 255 }) }), { minLength: 1, maxLength: 5 }),
        fc.nat(4000),
        (chunk, edits, cut) => {
          const bad = chunk.slice(0, Math.max(5, cut));
          for (const { at, value } of edits) if (at >= 4 && at < bad.length) bad[at] = value;
          expectSamePaths(() => numcodecsLz4Decode(bad, "c/1"));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
