// The inflate WebAssembly kernel against fflate's exact path (what browsers used before it)
// and node:zlib: the same bytes for every valid stream, an error wherever they refuse the
// data, bounded output, and the TypeScript paths back when kernels are off.
import * as nodeZlib from "node:zlib";
import { setWasmKernels } from "@zarr/spec";
import fc from "fast-check";
import { gzipSync as fflateGzip, zlibSync as fflateZlib } from "fflate";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { OutputLimitExceeded } from "../src/backend.js";
import { gunzipVerified, unzlibVerified } from "../src/fflate-backend.js";
import { inflateIntoWithKernel, inflateKernelAvailable, inflateKernelReady, inflateWithKernel } from "../src/inflate-kernel.js";
import { browserBackend, zlibCodec } from "./helpers.js";

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.length), Buffer.from(b.buffer, b.byteOffset, b.length)) === 0;
const STRATEGIES = [
  nodeZlib.constants.Z_DEFAULT_STRATEGY,
  nodeZlib.constants.Z_FILTERED,
  nodeZlib.constants.Z_HUFFMAN_ONLY,
  nodeZlib.constants.Z_RLE,
  nodeZlib.constants.Z_FIXED,
];

/** Data with every kind of block: random bytes, a few symbols, runs, and text-like repeats. */
const data = fc.oneof(
  fc.uint8Array({ maxLength: 70_000 }),
  fc.uint8Array({ min: 0, max: 3, maxLength: 200_000 }),
  fc.tuple(fc.uint8Array({ minLength: 1, maxLength: 300 }), fc.integer({ min: 1, max: 400 })).map(([piece, times]) => {
    const out = new Uint8Array(piece.length * times);
    for (let i = 0; i < times; i++) out.set(piece, i * piece.length);
    return out;
  }),
);
const encoding = fc.record({ level: fc.integer({ min: 0, max: 9 }), strategy: fc.constantFrom(...STRATEGIES), fflate: fc.boolean() });

function gzip(bytes: Uint8Array, e: { level: number; strategy: number; fflate: boolean }): Uint8Array {
  if (e.fflate) return fflateGzip(bytes, { level: e.level as 0, mtime: 0 });
  return new Uint8Array(nodeZlib.gzipSync(bytes, { level: e.level, strategy: e.strategy }));
}

function zlib(bytes: Uint8Array, e: { level: number; strategy: number; fflate: boolean }): Uint8Array {
  if (e.fflate) return fflateZlib(bytes, { level: e.level as 0 });
  return new Uint8Array(nodeZlib.deflateSync(bytes, { level: e.level, strategy: e.strategy }));
}

/** What `decode` gives: the bytes, or "error". */
function outcome(decode: () => Uint8Array | undefined): Uint8Array | "error" {
  try {
    const out = decode();
    if (out === undefined) throw new Error("the kernel did not run");
    return out;
  } catch (error) {
    if ((error as Error).message === "the kernel did not run") throw error;
    return "error";
  }
}

beforeAll(async () => {
  await inflateKernelReady();
  expect(inflateKernelAvailable()).toBe(true);
});

afterEach(() => setWasmKernels(true));

describe("the inflate kernel", () => {
  it("decodes every gzip and zlib stream to the bytes fflate and node:zlib give", () => {
    fc.assert(
      fc.property(data, encoding, (bytes, e) => {
        const gz = gzip(bytes, e);
        const gzOut = inflateWithKernel(gz, "gzip", bytes.length);
        expect(gzOut && sameBytes(gzOut, bytes)).toBe(true);
        expect(sameBytes(gunzipVerified(gz), bytes)).toBe(true);
        const z = zlib(bytes, e);
        const zOut = inflateWithKernel(z, "zlib", Number.MAX_SAFE_INTEGER);
        expect(zOut && sameBytes(zOut, bytes)).toBe(true);
        expect(sameBytes(unzlibVerified(z), bytes)).toBe(true);
        const raw = inflateWithKernel(new Uint8Array(nodeZlib.deflateRawSync(bytes, { level: e.level, strategy: e.strategy })), "raw", bytes.length);
        expect(raw && sameBytes(raw, bytes)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  // fflate does not check a stored block's NLEN, so it accepts some data node:zlib and the kernel refuse.
  it("accepts corrupt gzip data only where fflate and node:zlib accept it with the same bytes, refuses it where node:zlib does", () => {
    fc.assert(
      fc.property(data, encoding, fc.nat(), fc.nat(), fc.boolean(), (bytes, e, at, bit, truncate) => {
        const gz = gzip(bytes, e);
        const bad = truncate ? gz.slice(0, at % gz.length) : gz.slice();
        if (!truncate) bad[at % bad.length] ^= 1 << (bit % 8);
        const kernel = outcome(() => inflateWithKernel(bad, "gzip", bytes.length + 1024));
        const exact = outcome(() => gunzipVerified(bad, bytes.length + 1024));
        const node = outcome(() => new Uint8Array(nodeZlib.gunzipSync(bad)));
        if (kernel === "error") expect(node).toBe("error");
        else expect(exact !== "error" && node !== "error" && sameBytes(kernel, exact) && sameBytes(kernel, node)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("accepts a bit-flipped zlib stream only where node:zlib gives the same bytes; refuses every truncated one", () => {
    fc.assert(
      fc.property(data, encoding, fc.nat(), fc.nat(), (bytes, e, at, bit) => {
        const z = zlib(bytes, e);
        const bad = z.slice();
        bad[at % bad.length] ^= 1 << (bit % 8);
        const kernel = outcome(() => inflateWithKernel(bad, "zlib", bytes.length + 1024));
        const node = outcome(() => new Uint8Array(nodeZlib.inflateSync(bad)));
        if (kernel !== "error") expect(node !== "error" && sameBytes(kernel, node)).toBe(true);
        expect(outcome(() => inflateWithKernel(z.subarray(0, at % z.length), "zlib", bytes.length + 1024))).toBe("error");
      }),
      { numRuns: 300 },
    );
  });

  it("reads several gzip members, header fields and zero padding; refuses zero bytes between members", () => {
    const a = new TextEncoder().encode("first member ".repeat(50));
    const b = new TextEncoder().encode("second");
    // A header with FEXTRA, FNAME and FCOMMENT before the deflate data of a member node:zlib wrote.
    const withFields = nodeZlib.gzipSync(b);
    const header = Uint8Array.of(0x1f, 0x8b, 8, 0x1c, 0, 0, 0, 0, 0, 3, 2, 0, 0x41, 0x42, 0x6e, 0, 0x63, 0);
    const member = new Uint8Array([...header, ...withFields.subarray(10)]);
    const joined = new Uint8Array([...nodeZlib.gzipSync(a), ...member, 0, 0, 0]);
    const out = inflateWithKernel(joined, "gzip", 10_000);
    expect(out && new TextDecoder().decode(out)).toBe(new TextDecoder().decode(new Uint8Array([...a, ...b])));
    const gap = new Uint8Array([...nodeZlib.gzipSync(a), 0, ...nodeZlib.gzipSync(b)]);
    expect(() => inflateWithKernel(gap, "gzip", 10_000)).toThrow(/zero bytes between gzip members/);
  });

  it("stops at the bound: OutputLimitExceeded past maxOutput, undefined from the into-form when `out` is too small", () => {
    const bytes = new Uint8Array(100_000).fill(7);
    const z = new Uint8Array(nodeZlib.deflateSync(bytes));
    expect(() => inflateWithKernel(z, "zlib", 99_999)).toThrow(OutputLimitExceeded);
    expect(inflateWithKernel(z, "zlib", 100_000)?.length).toBe(100_000);
    // A gzip trailer claiming less than the data holds: the first capacity is too small, then it grows.
    const gz = new Uint8Array(nodeZlib.gzipSync(bytes));
    gz.set([1, 0, 0, 0], gz.length - 4);
    expect(() => inflateWithKernel(gz, "gzip", 1_000_000)).toThrow(/length field/);
    expect(inflateIntoWithKernel(z, "zlib", new Uint8Array(99_999))).toBeUndefined();
    const out = new Uint8Array(100_001);
    expect(inflateIntoWithKernel(z, "zlib", out)?.length).toBe(100_000);
  });

  it("names the problem: a bad header, a bad checksum, a truncated stream, a preset dictionary", () => {
    const z = new Uint8Array(nodeZlib.deflateSync(new TextEncoder().encode("hello hello hello")));
    expect(() => inflateWithKernel(Uint8Array.of(0x78, 0x9d, 1, 2, 3, 4), "zlib", 100)).toThrow(/bad gzip or zlib header/);
    const badSum = z.slice();
    badSum[badSum.length - 1] ^= 1;
    expect(() => inflateWithKernel(badSum, "zlib", 100)).toThrow(/checksum mismatch/);
    expect(() => inflateWithKernel(z.subarray(0, 6), "zlib", 100)).toThrow(/data ends/);
    expect(() => inflateWithKernel(Uint8Array.of(0x78, 0xbb, 0, 0, 0, 1, 3, 0), "zlib", 100)).toThrow(/preset dictionary/);
    expect(() => inflateWithKernel(Uint8Array.of(7), "raw", 100)).toThrow(/block type 3/);
  });

  it("is what the browser backend decodes with, and setWasmKernels(false) takes it back to the stream and fflate", async () => {
    const bytes = new TextEncoder().encode("zarr ".repeat(1000));
    const codec = await zlibCodec(browserBackend);
    const z = new Uint8Array(nodeZlib.deflateSync(bytes));
    z[z.length - 1] ^= 1;
    // The stream decodes until 4 MiB are decoded, then the kernel loads in the background and
    // takes over (native-stream.ts): decode 5 MiB, then wait (bounded) for the kernel.
    const mib = new Uint8Array(nodeZlib.deflateSync(new Uint8Array(1 << 20).fill(7)));
    for (let i = 0; i < 5; i++) expect((await codec.decode(mib, { key: "c/1" })).length).toBe(1 << 20);
    // The kernel names its problem; fflate's exact path words it its own way.
    let message = "";
    for (let i = 0; i < 400 && !/inflate: checksum mismatch/.test(message); i++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      // decode may answer synchronously (the kernel) or not (the stream), and may throw.
      message = await Promise.resolve()
        .then(() => codec.decode(z, { key: "c/0" }))
        .then(
        () => "decoded",
        (error: Error) => error.message,
      );
    }
    expect(message).toMatch(/inflate: checksum mismatch/);
    setWasmKernels(false);
    expect(inflateWithKernel(z, "zlib", 10_000)).toBeUndefined();
    await expect(codec.decode(z, { key: "c/0" })).rejects.toThrow(/Adler-32 check failed/);
  });
});
