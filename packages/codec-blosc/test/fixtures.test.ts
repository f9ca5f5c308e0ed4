/**
 * The blosc chunks zarr-python wrote into the test fixtures (test-data/) (v3: zstd without
 * shuffle, typesize 4; v2: lz4 with byte shuffle, via numcodecs), decoded here and
 * compared with the expected values.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixturesDir } from "../../../scripts/test-env.mjs";
import { bloscDecompress } from "../src/index.js";

const ROOT = join(fixturesDir(), "zarr-python");

interface Layout {
  name: string;
  dir: string;
  shape: number[];
  chunks: number[];
  dtype: string;
  littleEndian: boolean;
  fillValue: unknown;
  chunkKey: (coords: number[]) => string;
}

/** The fill value as the expected JSON spells values of the type. */
function fill(dtype: string, value: unknown): unknown {
  if (dtype === "bool") return Boolean(value);
  if (dtype.startsWith("float")) return Number(value);
  return String(value);
}

/** Element reader for the fixed-size types the fixtures use, as the expected JSON spells them. */
function reader(dtype: string): [number, (v: DataView, at: number, le: boolean) => unknown] | undefined {
  switch (dtype) {
    case "bool":
      return [1, (v, at) => v.getUint8(at) !== 0];
    case "uint8":
      return [1, (v, at) => String(v.getUint8(at))];
    case "int16":
      return [2, (v, at, le) => String(v.getInt16(at, le))];
    case "int32":
      return [4, (v, at, le) => String(v.getInt32(at, le))];
    case "float32":
      return [4, (v, at, le) => v.getFloat32(at, le)];
    case "float64":
      return [8, (v, at, le) => v.getFloat64(at, le)];
    case "float16":
      return [2, (v, at, le) => half(v.getUint16(at, le))];
  }
  return undefined;
}

function half(h: number): number {
  const e = (h >> 10) & 31;
  const m = h & 1023;
  const s = h >> 15 ? -1 : 1;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 31) return m ? Number.NaN : s * Number.POSITIVE_INFINITY;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}

const V2_TYPES: Record<string, string> = { "|b1": "bool", "|u1": "uint8", "i2": "int16", "i4": "int32", "f4": "float32", "f8": "float64" };

function v3Layouts(): Layout[] {
  const base = join(ROOT, "v3/data.zarr");
  const out: Layout[] = [];
  for (const name of readdirSync(base)) {
    const metaPath = join(base, name, "zarr.json");
    if (!existsSync(metaPath)) continue;
    const meta = JSON.parse(readFileSync(metaPath, "utf8"));
    const codecs = meta.codecs ?? [];
    if (codecs.length !== 2 || codecs[0].name !== "bytes" || codecs[1].name !== "blosc") continue;
    const sep = meta.chunk_key_encoding?.configuration?.separator ?? "/";
    out.push({
      name,
      dir: join(base, name),
      shape: meta.shape,
      chunks: meta.chunk_grid.configuration.chunk_shape,
      dtype: meta.data_type,
      littleEndian: codecs[0].configuration?.endian !== "big",
      fillValue: fill(meta.data_type, meta.fill_value),
      chunkKey: (c) => ["c", ...c].join(sep),
    });
  }
  return out;
}

function v2Layouts(): Layout[] {
  const base = join(ROOT, "v2/data.zarr");
  const out: Layout[] = [];
  for (const name of readdirSync(base)) {
    const metaPath = join(base, name, ".zarray");
    if (!existsSync(metaPath)) continue;
    const meta = JSON.parse(readFileSync(metaPath, "utf8"));
    if (meta.compressor?.id !== "blosc" || meta.filters || meta.order !== "C") continue;
    const dtype = meta.dtype as string;
    const type = V2_TYPES[dtype] ?? V2_TYPES[dtype.slice(1)];
    if (type === undefined) continue;
    const sep = meta.dimension_separator ?? ".";
    out.push({
      name,
      dir: join(base, name),
      shape: meta.shape,
      chunks: meta.chunks,
      dtype: type,
      littleEndian: dtype[0] !== ">",
      fillValue: fill(type, meta.fill_value),
      chunkKey: (c) => c.join(sep),
    });
  }
  return out;
}

/** Decodes every chunk on disk and places its elements at their positions in C order. */
function readArray(layout: Layout, version: "v2" | "v3"): unknown[] {
  const [size, read] = reader(layout.dtype) ?? [0, () => undefined];
  const total = layout.shape.reduce((a, b) => a * b, 1);
  // Chunks holding only the fill value are not stored.
  const values: unknown[] = new Array(total).fill(layout.fillValue);
  const grid = layout.shape.map((s, d) => Math.ceil(s / layout.chunks[d]));
  const nchunks = grid.reduce((a, b) => a * b, 1);
  for (let c = 0; c < nchunks; c++) {
    const coords = grid.map(() => 0);
    for (let d = grid.length - 1, r = c; d >= 0; d--) {
      coords[d] = r % grid[d];
      r = Math.floor(r / grid[d]);
    }
    const path = join(layout.dir, layout.chunkKey(coords));
    if (!existsSync(path) || !statSync(path).isFile()) continue;
    const bytes = bloscDecompress(new Uint8Array(readFileSync(path)), `${version}/${layout.name}/${layout.chunkKey(coords)}`);
    const per = layout.chunks.reduce((a, b) => a * b, 1);
    expect(bytes.length).toBe(per * size);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0; i < per; i++) {
      let rest = i;
      let flat = 0;
      let inside = true;
      const local = layout.chunks.map(() => 0);
      for (let d = layout.chunks.length - 1; d >= 0; d--) {
        local[d] = rest % layout.chunks[d];
        rest = Math.floor(rest / layout.chunks[d]);
      }
      for (let d = 0; d < layout.shape.length; d++) {
        const g = coords[d] * layout.chunks[d] + local[d];
        if (g >= layout.shape[d]) inside = false;
        flat = flat * layout.shape[d] + g;
      }
      if (inside) values[flat] = read(view, i * size, layout.littleEndian);
    }
  }
  return values;
}

describe("zarr-python fixtures", () => {
  for (const [version, layouts] of [
    ["v3", v3Layouts()],
    ["v2", v2Layouts()],
  ] as const) {
    it(`${version}: every blosc-compressed numeric array (${layouts.map((l) => l.name).join(", ")})`, () => {
      expect(layouts.length).toBeGreaterThan(5);
      for (const layout of layouts) {
        const expected = JSON.parse(readFileSync(join(ROOT, "expected", version, `${layout.name}.json`), "utf8"));
        expect(readArray(layout, version), `${version}/${layout.name}`).toEqual(expected.values);
      }
    });
  }

  it("v3 1d.contiguous.blosc.i2 decodes to int16 1, 2, 3, 4", () => {
    const bytes = bloscDecompress(new Uint8Array(readFileSync(join(ROOT, "v3/data.zarr/1d.contiguous.blosc.i2/c/0"))));
    expect(Array.from(new Int16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2))).toEqual([1, 2, 3, 4]);
  });
});
