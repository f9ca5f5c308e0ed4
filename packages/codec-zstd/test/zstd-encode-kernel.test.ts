/**
 * The encoder's WebAssembly kernel against the TypeScript encoder: the same bytes for the
 * same input, level and checksum flag, on random and compressible inputs at every level
 * (sizes 0, 1, small, around the 128 KiB block size, several blocks, beyond the window),
 * and on the payloads of the decoder corpus. Kernel frames decode with our decoder and with
 * libzstd (numcodecs 0.11). The codec's encode path uses the kernel, and the TypeScript
 * path when kernels are off.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { setWasmKernels } from "@zarr/spec";
import fc from "fast-check";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { zstdCompressWithKernel, zstdEncodeKernelReady } from "../src/encoder/kernel.js";
import { createZstdCodec, zstdCompress, zstdDecompress } from "../src/index.js";
import { corpusData } from "./corpus-data.js";
import { libzstdDecode, rng, sameBytes } from "./reference.js";

// The kernel's bytes are imported on the first encode; the codec awaits this, direct calls must too.
beforeAll(() => zstdEncodeKernelReady());

const KERNEL_LEVELS = [-131072, -64, -8, -7, -5, -1, 0, ...Array.from({ length: 22 }, (_, i) => i + 1)];

function kernelFrame(data: Uint8Array, level: number, checksum: boolean): Uint8Array {
  const frame = zstdCompressWithKernel(data, level, checksum, "test");
  if (frame === undefined) throw new Error("the kernel did not run");
  return frame;
}

/** Where the two frames first differ, for a readable failure. */
function firstDifference(a: Uint8Array, b: Uint8Array): string {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return `byte ${i} (${a[i]} vs ${b[i]}), lengths ${a.length}/${b.length}`;
  return a.length === b.length ? "none" : `lengths ${a.length}/${b.length}`;
}

function expectSameFrame(data: Uint8Array, level: number, checksum: boolean, name: string): Uint8Array {
  const wasm = kernelFrame(data, level, checksum);
  const ts = zstdCompress(data, level, checksum);
  if (!sameBytes(wasm, ts)) {
    throw new Error(`${name} level ${level} checksum ${checksum}: kernel and TypeScript differ at ${firstDifference(wasm, ts)}`);
  }
  return wasm;
}

/** Text-like bytes with rare random bytes: long matches, repeat offsets, Huffman literals. */
function compressible(length: number, seed: number): Uint8Array {
  const r = rng(seed);
  const out = new Uint8Array(length);
  const phrase = new TextEncoder().encode("chunk 0/1/2 of the temperature array; ");
  for (let i = 0; i < length; i++) out[i] = r() < 0.02 ? Math.floor(r() * 256) : phrase[(i * 7 + (i >> 9)) % phrase.length];
  return out;
}

function randomBytes(length: number, seed: number): Uint8Array {
  const r = rng(seed);
  return Uint8Array.from({ length }, () => Math.floor(r() * 256));
}

/** Checks kernel frames with libzstd in one batch (numcodecs 0.11 refuses empty content). */
function expectLibzstdDecodes(cases: Array<{ name: string; data: Uint8Array; frame: Uint8Array }>): void {
  const nonEmpty = cases.filter((c) => c.data.length > 0);
  libzstdDecode(nonEmpty.map((c) => c.frame)).forEach((r, i) => {
    const c = nonEmpty[i];
    if (!r.ok) throw new Error(`${c.name}: libzstd rejected the kernel's frame: ${r.error}`);
    expect(sameBytes(r.bytes, c.data), `${c.name}: libzstd output`).toBe(true);
  });
}

afterEach(() => setWasmKernels(true));

describe("zstd encoder kernel", () => {
  it("reads the Math.log2 values the TypeScript encoder computes (the committed table is current)", () => {
    const wasmDir = join(import.meta.dirname, "..", "wasm");
    const generated = execFileSync(process.execPath, [join(wasmDir, "_zstdenc_log2.mjs")], { encoding: "utf8" });
    expect(readFileSync(join(wasmDir, "_zstdenc_log2.c"), "utf8")).toBe(generated);
  });

  it("property: the same frames as the TypeScript encoder on random, few-symbol and repetitive inputs at every level", () => {
    const cases: Array<{ name: string; data: Uint8Array; frame: Uint8Array }> = [];
    const input = fc.oneof(
      fc.uint8Array({ maxLength: 3000 }),
      fc.array(fc.constantFrom(0, 1, 2, 65, 66, 255), { maxLength: 5000 }).map((a) => Uint8Array.from(a)),
      fc
        .tuple(fc.uint8Array({ minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 400 }), fc.nat(20))
        .map(([pattern, times, noise]) => {
          const out = new Uint8Array(pattern.length * times);
          for (let i = 0; i < times; i++) out.set(pattern, i * pattern.length);
          for (let k = 0; k < noise && out.length > 0; k++) out[(k * 7919) % out.length] ^= k + 1;
          return out;
        }),
    );
    const level = fc.oneof(fc.constantFrom(...KERNEL_LEVELS), fc.integer({ min: -131072, max: 22 }));
    fc.assert(
      fc.property(input, level, fc.boolean(), (data, lvl, checksum) => {
        const frame = expectSameFrame(data, lvl, checksum, `length ${data.length}`);
        expect(sameBytes(zstdDecompress(frame), data)).toBe(true);
        if (cases.length < 300) cases.push({ name: `property level ${lvl} length ${data.length}`, data, frame });
      }),
      { numRuns: 400, seed: 20250 },
    );
    expectLibzstdDecodes(cases);
  });

  it("sizes 0, 1, small, around the 128 KiB block size and several blocks, every level, checksum on and off", () => {
    const block = 128 * 1024;
    const sizes = [0, 1, 2, 3, 4, 5, 7, 31, 32, 33, 255, 256, 257, 4095, 4096, 65_791, 65_792, block - 1, block, block + 1, 3 * block + 17];
    const cases: Array<{ name: string; data: Uint8Array; frame: Uint8Array }> = [];
    for (const size of sizes) {
      for (const level of KERNEL_LEVELS) {
        // Deep chains are slow in TypeScript: large inputs at the cheaper levels and a few deep ones.
        if (size > 65_536 && level > 9 && !(size === block && [13, 19, 22].includes(level))) continue;
        const checksum = (size + level) % 2 === 0;
        for (const [kind, data] of [
          ["compressible", compressible(size, size + 1)],
          ["random", randomBytes(size, size + 2)],
        ] as const) {
          const frame = expectSameFrame(data, level, checksum, `${kind} ${size}`);
          if (level % 4 === 1 || level < 0) cases.push({ name: `${kind} ${size} level ${level}`, data, frame });
        }
      }
    }
    expectLibzstdDecodes(cases);
    for (const c of cases) expect(sameBytes(zstdDecompress(c.frame), c.data), c.name).toBe(true);
  });

  it("runs of one byte (RLE blocks) between compressible blocks, and inputs larger than the window", () => {
    const block = 128 * 1024;
    const mixed = compressible(5 * block + 100, 9);
    mixed.fill(42, block, 3 * block);
    // Level 1's window is 512 KiB: a 1.25 MiB input makes a frame with a window descriptor.
    const large = compressible(1_310_720, 11);
    large.set(large.subarray(0, 400_000), 900_000);
    const cases = [];
    for (const [name, data, levels] of [
      ["rle", mixed, [-3, 1, 3, 6]],
      ["beyond the window", large, [-1, 1, 2]],
    ] as const) {
      for (const level of levels) cases.push({ name: `${name} level ${level}`, data, frame: expectSameFrame(data, level, true, name) });
    }
    expectLibzstdDecodes(cases);
  });

  it("the same frames as the TypeScript encoder on every payload of the decoder corpus", () => {
    const cases = [];
    for (const [name, data] of Object.entries(corpusData())) {
      for (const level of [-5, 1, 3, 5, 9]) {
        cases.push({ name: `${name} level ${level}`, data, frame: expectSameFrame(data, level, level === 3, name) });
      }
    }
    expectLibzstdDecodes(cases);
  });

  it("is not used when kernels are off", () => {
    setWasmKernels(false);
    expect(zstdCompressWithKernel(new Uint8Array(10), 3, false, "off")).toBeUndefined();
  });

  it("the codec encodes with the kernel, and with TypeScript when kernels are off: the same bytes", async () => {
    const data = compressible(300_000, 5);
    const codec = createZstdCodec({ level: 5, checksum: true });
    const withKernel = await codec.encode(data, { key: "c/0" });
    setWasmKernels(false);
    const withoutKernel = await codec.encode(data, { key: "c/0" });
    expect(sameBytes(withKernel, withoutKernel)).toBe(true);
    expect(sameBytes(withKernel, zstdCompress(data, 5, true))).toBe(true);
    expect(sameBytes(await codec.decode(withKernel, { key: "c/0" }), data)).toBe(true);
  });
});
