/**
 * The WebAssembly kernel against the TypeScript path: the filters give the same blocks, the
 * encoder the same chunks, the decoder the same bytes and, for corrupt chunks, the same
 * errors (code and message); chunks the kernel writes decode in numcodecs.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { setWasmKernels, wasmKernelsEnabled } from "@zarr/spec";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { fixturesDir } from "../../../scripts/test-env.mjs";
import { samePaths } from "../../../scripts/wasm-paths.mjs";
import { bloscKernel, shuffleBytes, shuffleChunk, unshuffleBytes, unshuffleChunk } from "../src/blosc-kernel.js";
import { type BloscCname, bitShuffle, bitUnshuffle, bloscCompress, bloscDecompress, byteShuffle, byteUnshuffle } from "../src/index.js";
import { b64, makeData, python, unb64 } from "./helpers.js";

const expectSamePaths = samePaths(setWasmKernels);
// zstd's streams are @zarr/codec-zstd's: its WebAssembly and TypeScript decoders word some
// details of a corrupt frame differently (e.g. whether a bad match offset is named).
const expectSamePathsButZstdDetail = samePaths(setWasmKernels, (m) => m.replace(/zstd: .*/, "zstd: (detail)"));

afterEach(() => setWasmKernels(true));

const CNAMES: BloscCname[] = ["lz4", "blosclz", "lz4hc", "zlib", "zstd", "snappy"];

/** Chunk contents: any bytes, compressible bytes, and smooth float32 values (the usual array). */
const contents = fc.oneof(
  fc.uint8Array({ maxLength: 3000 }),
  fc.record({ n: fc.nat(40_000), seed: fc.nat() }).map(({ n, seed }) => makeData(n, seed)),
  fc.record({ n: fc.nat(20_000), step: fc.double({ min: 1e-4, max: 1, noNaN: true }) }).map(
    ({ n, step }) => new Uint8Array(Float32Array.from({ length: n }, (_, i) => 280 + 10 * Math.sin(i * step)).buffer),
  ),
);

/** Encoder options: every compressor and filter, common and odd typesizes, automatic and small block sizes. */
const options = fc.record({
  cname: fc.constantFrom(...CNAMES),
  clevel: fc.integer({ min: 0, max: 9 }),
  shuffle: fc.constantFrom("noshuffle" as const, "shuffle" as const, "bitshuffle" as const),
  typesize: fc.oneof(fc.constantFrom(1, 2, 4, 8, 16), fc.integer({ min: 1, max: 300 })),
  blocksize: fc.constantFrom(0, 0, 128, 256, 1000, 4096),
});

describe("the blosc WebAssembly kernel", () => {
  it("runs in this runtime (Node.js 20 has WebAssembly SIMD)", () => {
    expect(wasmKernelsEnabled()).toBe(true);
  });

  it("shuffles and unshuffles blocks as the TypeScript filters do, at any size and typesize", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 6000 }),
        fc.oneof(fc.constantFrom(1, 2, 4, 8, 16), fc.integer({ min: 1, max: 255 })),
        fc.constantFrom(1 as const, 2 as const),
        (block, typesize, mode) => {
          const kernel = bloscKernel(shuffleBytes(block.length) + unshuffleBytes(block.length));
          if (kernel === undefined) throw new Error("no kernel");
          const want = new Uint8Array(block.length);
          (mode === 1 ? byteShuffle : bitShuffle)(block, 0, want, 0, block.length, typesize);
          const got = shuffleChunk(kernel, block, block.length, typesize, mode).slice();
          expect(Buffer.from(got).equals(want)).toBe(true);
          // Back: the kernel's unshuffle of the shuffled block against the TypeScript one.
          const back = new Uint8Array(block.length);
          (mode === 1 ? byteUnshuffle : bitUnshuffle)(want, 0, back, 0, block.length, typesize);
          const flags = mode === 1 ? 0x01 : 0x04;
          const unshuffled = new Uint8Array(block.length);
          unshuffleChunk(kernel, block.length, block.length, typesize, flags, unshuffled, (shuffled) => shuffled.set(want));
          expect(Buffer.from(unshuffled).equals(back)).toBe(true);
        },
      ),
      { numRuns: 600 },
    );
  });

  it("encodes to the same chunks as the TypeScript encoder, and decodes them to the same bytes", () => {
    fc.assert(
      fc.property(contents, options, (data, opts) => {
        const chunk = expectSamePaths(() => bloscCompress(data, opts));
        if (!("bytes" in chunk)) throw new Error(`encoding failed: ${chunk.message}`);
        const decoded = expectSamePaths(() => bloscDecompress(Buffer.from(chunk.bytes, "hex"), "c/0"));
        expect(decoded).toEqual({ bytes: Buffer.from(data).toString("hex") });
      }),
      { numRuns: 250 },
    );
  });

  it("decodes every blosc chunk of the zarr-python fixtures to the same bytes", () => {
    const chunks = fixtureChunks();
    expect(chunks.length).toBeGreaterThan(5);
    for (const [key, chunk] of chunks) expect(expectSamePaths(() => bloscDecompress(chunk, key))).toHaveProperty("bytes");
  });

  it("gives the same outcome for mutated and truncated chunks of every compressor and filter", () => {
    const data = makeData(20_000, 7);
    const chunks = CNAMES.flatMap((cname) =>
      (["shuffle", "bitshuffle", "noshuffle"] as const).map((shuffle) => bloscCompress(data, { cname, shuffle, typesize: 4, blocksize: 4096 })),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...chunks),
        fc.array(fc.record({ at: fc.oneof(fc.constantFrom(2, 3), fc.nat(20_000)), value: fc.integer({ min: 0, max: 255 }) }), { minLength: 1, maxLength: 4 }),
        fc.nat(20_000),
        (chunk, edits, cut) => {
          const bad = chunk.slice(0, Math.max(16, chunk.length - cut));
          for (const { at, value } of edits) bad[at % bad.length] = value;
          expectSamePathsButZstdDetail(() => bloscDecompress(bad, "t/c/1"));
        },
      ),
      { numRuns: 1500 },
    );
  });

  it("decodes hand-made chunks as the TypeScript path does: both filter flags on 1-byte elements, short streams", () => {
    const both = bloscCompress(makeData(5000, 3), { cname: "lz4", shuffle: "bitshuffle", typesize: 1 });
    both[2] |= 0x01; // the byte shuffle flag too: for 1-byte elements the bit shuffle still applies
    expect(expectSamePaths(() => bloscDecompress(both, "c/2"))).toHaveProperty("bytes");
    // One LZ4 stream (no split) that decodes to 5 bytes of the block's 200.
    const short = Uint8Array.of(2, 1, 0x30, 1, 200, 0, 0, 0, 200, 0, 0, 0, 30, 0, 0, 0, 20, 0, 0, 0, 6, 0, 0, 0, 0x50, 1, 2, 3, 4, 5);
    expect(expectSamePaths(() => bloscDecompress(short, "c/3"))).toMatchObject({ message: expect.stringContaining("decoded to 5 bytes") });
  });

  it("writes LZ4 and filtered chunks that numcodecs decodes to the same bytes", () => {
    const cases = CNAMES.flatMap((cname) =>
      (["shuffle", "bitshuffle"] as const).flatMap((shuffle) =>
        [1, 2, 4, 8, 3].map((typesize) => ({ cname, shuffle, typesize, data: makeData(65_536 + 3 * typesize, typesize) })),
      ),
    );
    const chunks = cases.map(({ data, ...opts }) => bloscCompress(data, { ...opts, clevel: 5 }));
    const decoded = python<string[]>(
      `import sys, json, base64
from numcodecs import blosc
blosc.use_threads = False
print(json.dumps([base64.b64encode(blosc.decompress(base64.b64decode(c))).decode() for c in json.load(sys.stdin)]))`,
      chunks.map(b64),
    );
    decoded.forEach((d, i) => {
      expect(Buffer.from(unb64(d)).equals(cases[i].data), JSON.stringify({ ...cases[i], data: undefined })).toBe(true);
    });
  });
});

/** Every chunk file of the blosc-compressed arrays among the zarr-python fixtures, with a key. */
function fixtureChunks(): [string, Uint8Array][] {
  const found: [string, Uint8Array][] = [];
  for (const version of ["v2", "v3"]) {
    const base = join(fixturesDir(), "zarr-python", version, "data.zarr");
    for (const name of readdirSync(base)) {
      const dir = join(base, name);
      if (!statSync(dir).isDirectory()) continue;
      const metadata = readdirSync(dir).find((f) => f === ".zarray" || f === "zarr.json");
      if (metadata === undefined || !readFileSync(join(dir, metadata), "utf8").includes('"blosc"')) continue;
      const walk = (at: string, key: string): void => {
        for (const f of readdirSync(at)) {
          const path = join(at, f);
          if (statSync(path).isDirectory()) walk(path, `${key}/${f}`);
          else if (!f.startsWith(".") && f !== "zarr.json") found.push([`${key}/${f}`, new Uint8Array(readFileSync(path))]);
        }
      };
      walk(dir, `${version}/${name}`);
    }
  }
  return found;
}
