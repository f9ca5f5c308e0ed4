/**
 * Round trips through the built `zarr` command, checked by independent parties:
 *
 * - NumPy: every data type @zarr/core supports, written as .npy by numpy, stored with
 *   `zarr put` (ragged chunks; transpose with big-endian bytes; rectilinear grids) and
 *   read back with `zarr get`: the .npy equals the original bit for bit, the JSON equals
 *   canonical values numpy computed (test/make_corpus.py).
 * - An independent Python reader (scripts/independent_reader.py, json + numpy) reads
 *   every stored array and agrees with `zarr get --format json`.
 * - zarrita.js reads every stored array of a data type it supports identically.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { FileSystemStore } from "@zarr/store-fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as zarrita from "zarrita";
import { CONCURRENCY, jsonDifference, parseGetJson, pool, python, pythonScript, type RunResult, removeTempDirs, tempDir, zarr } from "./helpers.js";

interface Case {
  name: string;
  file: string;
  shape: number[];
  kind: string;
  itemsize: number;
  expected: { shape: number[]; data_type: unknown; values: unknown[] };
}

interface Variant {
  /** Group in the store holding this variant's arrays. */
  group: string;
  args: (c: Case) => string[];
}

function codecsArg(c: Case, endian: "little" | "big"): string[] {
  const ndim = c.shape.length;
  const chain: unknown[] = [];
  if (ndim > 0) chain.push({ name: "transpose", configuration: { order: [...Array(ndim).keys()].reverse() } });
  // Endianness means nothing for 1-byte types; leave it at little there (zarrita 0.7
  // byte-swaps bool arrays in groups of 4 when it says big).
  chain.push({ name: "bytes", configuration: { endian: c.itemsize > 1 ? endian : "little" } });
  return ["--codecs", JSON.stringify(chain)];
}

/** Rectilinear edges: explicit lists (with a run of three 1s) where a dimension is long enough. */
function rectilinearChunks(shape: number[]): string {
  const dims = shape.map((n) => (n >= 6 ? [[1, 3], n - 3] : n > 3 ? [1, 2, n - 3] : 2));
  return JSON.stringify(dims);
}

const VARIANTS: Record<string, Variant> = {
  // ragged edges, default codecs
  ragged: {
    group: "ragged",
    args: (c) => ["--chunks", c.shape.map((n) => Math.max(1, Math.ceil((2 * n) / 3))).join(",")],
  },
  // other ragged edges, reversed transpose, big-endian bytes
  transposed: {
    group: "transposed",
    args: (c) => ["--chunks", c.shape.map((n) => Math.max(1, Math.ceil(n / 2))).join(","), ...codecsArg(c, "big")],
  },
  // rectilinear grid with explicit edges and runs, transpose
  rectilinear: {
    group: "rectilinear",
    args: (c) => ["--chunks", rectilinearChunks(c.shape), ...codecsArg(c, "little")],
  },
};

/** Cases also stored with a rectilinear grid (one of each family, and every layout). */
const RECTILINEAR_CASES = new Set(["f2", "c16", "U5", "V3", "M8_D", "nd1", "nd2", "nd3", "nd4", "nd5", "zero_len_2d"]);

/**
 * Cases stored only transposed (each process start costs; these add little over their
 * siblings stored both ways: the middle integer widths, the other time units, ...).
 */
const TRANSPOSED_ONLY = new Set(["i2", "i4", "u2", "u4", "U4_be", "S4", "M8_D", "M8_10s", "M8_Y", "m8_us", "m8_h", "nd1", "nd4", "zero_len"]);

/** What zarrita 0.7 reads in Node 20 (float16 needs Float16Array, which Node 20 lacks). */
const ZARRITA_TYPES = new Set(["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64"]);

interface Stored {
  c: Case;
  variant: string;
  arrayPath: string;
  put: RunResult;
  json?: RunResult;
  npy?: RunResult;
  npyFile: string;
}

let work: string;
let store: string;
let cases: Case[];
const stored: Stored[] = [];
let npyComparison: Record<string, string[]>;
let independent: unknown[];

afterAll(removeTempDirs);

beforeAll(async () => {
  work = tempDir();
  store = path.join(work, "store.zarr");
  cases = JSON.parse(pythonScript("make_corpus.py", [work])) as Case[];
  for (const c of cases) {
    for (const [name, variant] of Object.entries(VARIANTS)) {
      if (name === "rectilinear" && !RECTILINEAR_CASES.has(c.name)) continue;
      if (name === "ragged" && TRANSPOSED_ONLY.has(c.name)) continue;
      const arrayPath = `${variant.group}/${c.name}`;
      stored.push({ c, variant: name, arrayPath, npyFile: path.join(work, `${variant.group}.${c.name}.out.npy`) } as Stored);
    }
  }
  await pool(stored, CONCURRENCY, async (s) => {
    s.put = await zarr(["put", store, s.arrayPath, "--from", s.c.file, ...VARIANTS[s.variant].args(s.c)]);
    if (s.put.code !== 0) return;
    // JSON of the transposed and rectilinear variants; .npy of the ragged and transposed
    // ones (the JSON of a ragged array adds nothing once its .npy matches bit for bit).
    if (s.variant !== "ragged") s.json = await zarr(["get", store, s.arrayPath, "--format", "json"]);
    if (s.variant !== "rectilinear") s.npy = await zarr(["get", store, s.arrayPath, "--format", "npy", "-o", s.npyFile]);
  });
  // One Python process compares every .npy bit for bit with its original.
  const pairs = stored.filter((s) => s.npy?.code === 0).map((s) => [s.c.file, s.npyFile, s.arrayPath]);
  npyComparison = JSON.parse(python(COMPARE_NPY, [], JSON.stringify(pairs)));
  // One Python process reads every stored array with the independent reader.
  const arrays = stored.filter((s) => s.put.code === 0).map((s) => [store, s.arrayPath]);
  independent = JSON.parse(pythonScript("../../../scripts/independent_reader.py", ["--batch"], JSON.stringify(arrays))) as unknown[];
}, 300_000);

/** The problem reported when the only difference is signalling NaNs that became quiet. */
const QUIETED = "signalling NaNs were quieted";

const COMPARE_NPY = `
import json, sys
import numpy as np

def little(x):
    # Byte order normalised by swapping bytes (never by converting values, which could touch NaN bits).
    if x.dtype.byteorder == ">":
        x = x.byteswap().view(x.dtype.newbyteorder("<"))
    return np.ascontiguousarray(x)

def only_snans_quieted(a, b):
    """True when every differing float component is a signalling NaN in a and the same NaN, quiet, in b."""
    if a.dtype.kind not in "fc":
        return False
    size = a.dtype.itemsize // (2 if a.dtype.kind == "c" else 1)
    u = np.dtype("<u%d" % size)
    x, y = a.reshape(-1).view(u), b.reshape(-1).view(u)
    mant = size * 8 - {2: 6, 4: 9, 8: 12}[size]
    exp_mask = ((1 << (size * 8 - 1)) - 1) & ~((1 << mant) - 1)
    quiet = 1 << (mant - 1)
    for p, q in zip(x[x != y], y[x != y]):
        p, q = int(p), int(q)
        is_snan = (p & exp_mask) == exp_mask and (p & ((1 << mant) - 1)) != 0 and not (p & quiet)
        if not (is_snan and q == p | quiet):
            return False
    return True

out = {}
for original, written, label in json.load(sys.stdin):
    a, b = np.load(original), np.load(written)
    problems = []
    want = np.dtype("V%d" % a.dtype.itemsize) if a.dtype.kind == "S" else little(a).dtype
    if b.dtype != want:
        problems.append("dtype %s, expected %s" % (b.dtype.str, want.str))
    if b.shape != a.shape:
        problems.append("shape %s, expected %s" % (b.shape, a.shape))
    elif little(a).tobytes() != little(b).tobytes():
        same_type = little(a).dtype == little(b).dtype
        problems.append("${QUIETED}" if same_type and only_snans_quieted(little(a), little(b)) else "the element bytes differ")
    out[label] = problems
json.dump(out, sys.stdout)
`;

function label(s: Stored): string {
  return `${s.variant} ${s.c.name}`;
}

describe("zarr put / zarr get round trips", () => {
  it("stores every case", () => {
    expect(stored.length).toBeGreaterThanOrEqual(60);
    for (const s of stored) expect(s.put.stderr, `${label(s)}: ${s.put.command}`).toBe("");
    for (const s of stored) expect(s.put.code).toBe(0);
  });

  it("gets every case back as JSON equal to numpy's canonical values", () => {
    for (const s of stored) {
      if (s.variant === "ragged") continue;
      expect(s.json?.stderr, label(s)).toBe("");
      const got = parseGetJson(s.json!.stdout.toString("utf8"));
      expect(jsonDifference(got, s.c.expected), label(s)).toBeUndefined();
    }
  });

  it("gets every case back as .npy equal to the original bit for bit", () => {
    for (const s of stored) {
      if (s.variant === "rectilinear") continue;
      expect(s.npy?.stderr, label(s)).toBe("");
      const problems = npyComparison[s.arrayPath];
      expect(problems, label(s)).toEqual([]);
    }
  });

  // copyRegion moves float storage through integer views, so signalling NaNs keep their bits.
  it("keeps signalling NaNs of float32-backed types across partial chunks", () => {
    const quieted = stored.filter((s) => npyComparison[s.arrayPath]?.[0] === QUIETED).map(label);
    expect(quieted).toEqual([]);
  });

  it("writes the chunk grids and codecs it was asked for", () => {
    const meta = (p: string) => JSON.parse(readFileSync(path.join(store, p, "zarr.json"), "utf8"));
    const rect = meta("rectilinear/nd2");
    expect(rect.chunk_grid).toEqual({
      name: "rectilinear",
      configuration: { kind: "inline", chunk_shapes: [[1, 2, 2], [[1, 3], 4]] },
    });
    const tr = meta("transposed/nd3");
    expect(tr.chunk_grid.configuration.chunk_shape).toEqual([2, 3, 2]);
    expect(tr.codecs[0]).toEqual({ name: "transpose", configuration: { order: [2, 1, 0] } });
    expect(tr.codecs[1]).toEqual({ name: "bytes", configuration: { endian: "big" } });
  });
});

describe("the independent Python reader", () => {
  it("reads every stored array exactly as zarr get does (or numpy's values)", () => {
    const written = stored.filter((s) => s.put.code === 0);
    expect(independent).toHaveLength(written.length);
    written.forEach((s, i) => {
      // Ragged arrays were not read as JSON: numpy's canonical values stand in (they
      // equal zarr get's JSON wherever both exist, see above).
      const ours = s.json === undefined ? s.c.expected : parseGetJson(s.json.stdout.toString("utf8"));
      expect(jsonDifference(independent[i], ours), label(s)).toBeUndefined();
    });
  });

  it("covers 1 to 5 dimensions, rectilinear grids, transpose and every data type", () => {
    const covered = new Set(stored.map((s) => JSON.stringify(s.c.expected.data_type)));
    expect(covered.size).toBeGreaterThanOrEqual(24);
    for (const nd of [1, 2, 3, 4, 5]) {
      expect(stored.some((s) => s.variant === "rectilinear" && s.c.shape.length === nd)).toBe(true);
    }
  });
});

/** Canonical JSON values of what zarrita returned, in C order (zarrita may return other strides). */
function zarritaValues(chunk: { data: unknown; shape: number[]; stride: number[] }, dataType: string): unknown[] {
  const data = chunk.data as ArrayLike<unknown> & { get?: (i: number) => unknown };
  const { shape, stride } = chunk;
  const n = shape.reduce((a, b) => a * b, 1);
  const out: unknown[] = [];
  for (let i = 0; i < n; i++) {
    let offset = 0;
    for (let d = shape.length - 1, rest = i; d >= 0; d--) {
      offset += (rest % shape[d]) * stride[d];
      rest = Math.floor(rest / shape[d]);
    }
    const v = typeof data.get === "function" && !ArrayBuffer.isView(data) ? data.get(offset) : data[offset];
    if (dataType === "bool") out.push(Boolean(v));
    else if (dataType.startsWith("int") || dataType.startsWith("uint")) out.push(String(v));
    else {
      const x = v as number;
      out.push(Number.isNaN(x) ? "NaN" : x === Infinity ? "Infinity" : x === -Infinity ? "-Infinity" : x);
    }
  }
  return out;
}

describe("zarrita.js reads what zarr put wrote", () => {
  const zarritaStore = () => {
    const fs = new FileSystemStore(store, { readOnly: true });
    return { get: (key: string) => fs.get(key.replace(/^\//, "")) };
  };

  it("reads every regular-grid array of a supported data type identically", async () => {
    const root = zarrita.root(zarritaStore());
    let checked = 0;
    for (const s of stored) {
      const dt = s.c.expected.data_type;
      if (s.variant === "rectilinear" || typeof dt !== "string" || !ZARRITA_TYPES.has(dt)) continue;
      if (s.c.shape.includes(0)) continue; // zarrita 0.7 cannot read arrays with a zero-length dimension
      const arr = await zarrita.open(root.resolve(s.arrayPath), { kind: "array" });
      const got: unknown = await zarrita.get(arr);
      // zarrita returns a 0-d array's only element as a scalar.
      const chunk =
        typeof got === "object" && got !== null && "shape" in got
          ? (got as { data: unknown; shape: number[]; stride: number[] })
          : { data: [got], shape: [], stride: [] };
      expect(chunk.shape, label(s)).toEqual(s.c.shape);
      expect(jsonDifference(zarritaValues(chunk, dt), s.c.expected.values), label(s)).toBeUndefined();
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(25);
  });

  it("covers 1 to 5 dimensions and the transpose codec", () => {
    const checked = stored.filter((s) => s.variant !== "rectilinear" && ZARRITA_TYPES.has(String(s.c.expected.data_type)));
    for (const nd of [1, 2, 3, 4, 5]) expect(checked.some((s) => s.variant === "transposed" && s.c.shape.length === nd)).toBe(true);
  });

  it("cannot read the data types outside its list (see the README)", async () => {
    const root = zarrita.root(zarritaStore());
    const unsupported = stored.filter((s) => {
      const dt = s.c.expected.data_type;
      return s.variant === "transposed" && !(typeof dt === "string" && ZARRITA_TYPES.has(dt));
    });
    const names = new Set<string>();
    for (const s of unsupported) {
      const dt = s.c.expected.data_type as string | { name: string };
      const name = typeof dt === "string" ? dt.replace(/^r\d+$/, "r<N>") : dt.name;
      let read = false;
      try {
        const arr = await zarrita.open(root.resolve(s.arrayPath), { kind: "array" });
        await zarrita.get(arr);
        read = true;
      } catch {
        names.add(name);
      }
      expect(read, `zarrita unexpectedly read ${label(s)}`).toBe(false);
    }
    expect([...names].sort()).toEqual([
      "complex128",
      "complex64",
      "fixed_length_utf32",
      "float16",
      "numpy.datetime64",
      "numpy.timedelta64",
      "r<N>",
    ]);
  });
});
