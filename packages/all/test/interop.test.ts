/**
 * Interop matrix: arrays this library writes with every codec, for sensible data types,
 * read back by an independent reader (scripts/independent_reader.py: numpy, with
 * numcodecs' C libraries for the compressors) and, for the codecs it supports, by zarrita.js.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileSystemStore as ZarritaFileSystemStore } from "@zarrita/storage";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as zarrita from "zarrita";
import { havePythonZarr, requirePythonZarr } from "../../../scripts/test-env.mjs";
import { createArray, FileSystemStore, get, set, toCanonicalJson } from "../src/index.js";

const DTYPES = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float32", "float64"] as const;
type Chain = { name: string; codecs: (dtype: string, size: number) => unknown[]; zarrita: boolean; ints?: boolean };

const bytes = { name: "bytes", configuration: { endian: "little" } };
const CHAINS: Chain[] = [
  { name: "gzip", codecs: () => [bytes, { name: "gzip", configuration: { level: 5 } }], zarrita: true },
  { name: "zlib", codecs: () => [bytes, { name: "numcodecs.zlib", configuration: { level: 1 } }], zarrita: false },
  { name: "zstd", codecs: () => [bytes, { name: "zstd", configuration: { level: 3, checksum: true } }], zarrita: true },
  {
    name: "blosc-lz4-shuffle",
    codecs: (_, size) => [bytes, { name: "blosc", configuration: { cname: "lz4", clevel: 5, shuffle: "shuffle", typesize: size, blocksize: 0 } }],
    zarrita: true,
  },
  {
    name: "blosc-zstd-bitshuffle",
    codecs: (_, size) => [bytes, { name: "blosc", configuration: { cname: "zstd", clevel: 3, shuffle: "bitshuffle", typesize: size, blocksize: 0 } }],
    zarrita: true,
  },
  { name: "blosc-blosclz", codecs: () => [bytes, { name: "blosc", configuration: { cname: "blosclz", clevel: 9, shuffle: "noshuffle", blocksize: 0 } }], zarrita: true },
  { name: "blosc-zlib", codecs: (_, size) => [bytes, { name: "blosc", configuration: { cname: "zlib", clevel: 4, shuffle: "shuffle", typesize: size, blocksize: 256 } }], zarrita: true },
  { name: "lz4", codecs: () => [bytes, { name: "numcodecs.lz4", configuration: { acceleration: 1 } }], zarrita: false },
  { name: "bz2", codecs: () => [bytes, { name: "numcodecs.bz2", configuration: { level: 9 } }], zarrita: false },
  { name: "lzma", codecs: () => [bytes, { name: "numcodecs.lzma", configuration: { preset: 1 } }], zarrita: false },
  { name: "crc32c", codecs: () => [bytes, { name: "crc32c" }], zarrita: true },
  {
    name: "transpose+shuffle+zstd",
    codecs: (_, size) => [{ name: "transpose", configuration: { order: [1, 0] } }, bytes, { name: "numcodecs.shuffle", configuration: { elementsize: size } }, { name: "zstd", configuration: { level: 1 } }],
    zarrita: false,
  },
  {
    name: "delta+zlib",
    codecs: (dtype) => [{ name: "numcodecs.delta", configuration: { dtype: `<${npChar(dtype)}` } }, bytes, { name: "numcodecs.zlib", configuration: { level: 1 } }],
    zarrita: false,
    ints: true,
  },
];

function npChar(dtype: string): string {
  const size = { int8: 1, uint8: 1, int16: 2, uint16: 2, int32: 4, uint32: 4, int64: 8, uint64: 8, float32: 4, float64: 8 }[dtype] ?? 1;
  return `${dtype.startsWith("u") ? "u" : dtype.startsWith("f") ? "f" : "i"}${size}`;
}

function values(dtype: string, n: number): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < n; i++) {
    const x = Math.round(Math.sin(i / 7) * 100) + (i % 13);
    if (dtype.startsWith("float")) out.push(x / 8 + (i % 5 === 0 ? -0.5 : 0.25));
    else if (dtype === "int64" || dtype === "uint64") out.push(BigInt(dtype === "uint64" ? Math.abs(x) * 1_000_000_007 : x * 1_000_000_007));
    else out.push(dtype.startsWith("u") ? Math.abs(x) : x);
  }
  return out;
}

const dir = mkdtempSync(join(tmpdir(), "zarr-interop-"));
const written: { chain: Chain; dtype: string; path: string; expected: unknown }[] = [];

beforeAll(async () => {
  const store = new FileSystemStore(dir);
  for (const chain of CHAINS) {
    for (const dtype of DTYPES) {
      if (chain.ints && dtype.startsWith("float")) continue;
      const size = npChar(dtype).slice(1);
      const path = `${chain.name}/${dtype}`;
      const arr = await createArray(store, path, {
        shape: [23, 17],
        chunkShape: [10, 8], // ragged edges
        dataType: dtype,
        fillValue: 0,
        codecs: chain.codecs(dtype, Number(size)) as never,
      });
      await set(arr, null, values(dtype, 23 * 17) as never);
      written.push({ chain, dtype, path, expected: toCanonicalJson(await get(arr)) });
    }
  }
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the independent reader (numpy + numcodecs) reads what we write", () => {
  it.skipIf(!havePythonZarr() && !process.env.CI)("every codec × data type", () => {
    requirePythonZarr();
    const script = join(import.meta.dirname, "../../../scripts/independent_reader.py");
    const out = execFileSync("/usr/bin/python3", [script, "--batch"], {
      input: JSON.stringify(written.map((w) => [dir, w.path])),
      encoding: "utf8",
      maxBuffer: 1 << 28,
    });
    const results = JSON.parse(out) as unknown[];
    written.forEach((w, i) => {
      expect(results[i], w.path).toEqual(w.expected);
    });
    expect(written.length).toBeGreaterThan(110);
  });
});

describe("zarrita.js reads what we write", () => {
  it("with every codec it supports", async () => {
    let checked = 0;
    for (const w of written) {
      if (!w.chain.zarrita) continue;
      const arr = await zarrita.open(zarrita.root(new ZarritaFileSystemStore(dir)).resolve(w.path), { kind: "array" });
      const chunk = await zarrita.get(arr);
      const expected = (w.expected as { values: string[] | number[] }).values;
      const got = Array.from(chunk.data as ArrayLike<number | bigint>, (v) => (typeof v === "bigint" || !w.dtype.startsWith("float") ? String(v) : v));
      expect(got, w.path).toEqual(expected);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(70);
  });
});
