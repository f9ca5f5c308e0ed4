/** Shared test helpers: data types from @zarr/core, codec construction, Python (numcodecs 0.11). */
import { execFileSync } from "node:child_process";
import { createRegistry } from "@zarr/core";
import type {
  ArrayToArrayCodec,
  ArrayToBytesCodec,
  BytesToBytesCodec,
  CodecBuildContext,
  CodecEntry,
  DataArray,
  DataType,
  JsonObject,
  NdArray,
  Scalar,
  TypedArray,
} from "@zarr/spec";
import { cStrides } from "@zarr/spec";
import { havePythonZarr, requirePythonZarr, skipWithout } from "../../../scripts/test-env.mjs";
import { mulberry32 as rng } from "../../../scripts/test-random.mjs";
import { filterCodecs } from "../src/index.js";

export const registry = createRegistry(filterCodecs);
export const ctx = { key: "arr/c/0/1" };

/** A data type of @zarr/core by name. */
export async function dataType(name: string, configuration: JsonObject = {}): Promise<DataType> {
  const entry = await registry.dataType(name);
  return entry.fromConfig(name, configuration, ["data_type"]);
}

/** The build context the pipeline would pass for a codec at `codecs[0]` receiving `spec`. */
export function buildContext(dt: DataType, shape: number[], fillValue?: Scalar): CodecBuildContext {
  return {
    spec: { shape, dataType: dt, fillValue: fillValue ?? dt.getItem(dt.allocate(1), 0) },
    path: ["codecs", 0],
    buildPipeline: () => {
      throw new Error("not used");
    },
    resolveDataType: (name, configuration) => dataType(name, configuration),
  };
}

/** Builds an array→array codec for data of `typeName` and `shape`. */
export async function arrayCodec(
  entry: CodecEntry,
  config: JsonObject,
  dt: DataType,
  shape: number[],
  fill?: Scalar,
): Promise<ArrayToArrayCodec> {
  return (await entry.fromConfig(config, buildContext(dt, shape, fill))) as ArrayToArrayCodec;
}

/** Builds an array→bytes codec. */
export async function bytesCodec(entry: CodecEntry, config: JsonObject, dt: DataType, shape: number[]): Promise<ArrayToBytesCodec> {
  return (await entry.fromConfig(config, buildContext(dt, shape))) as ArrayToBytesCodec;
}

/** Builds a bytes→bytes codec (the spec is that of uint8 data). */
export async function b2bCodec(entry: CodecEntry, config: JsonObject = {}): Promise<BytesToBytesCodec> {
  return (await entry.fromConfig(config, buildContext(await dataType("uint8"), [1]))) as BytesToBytesCodec;
}

/** A C-contiguous NdArray. */
export function nd(data: DataArray, shape: number[]): NdArray {
  return { data, shape, stride: cStrides(shape) };
}

/** Little-endian bytes of in-memory data of `dt`. */
export function toLE(dt: DataType, data: DataArray): Uint8Array {
  return (dt.toBytes as (d: DataArray, le: boolean) => Uint8Array).call(dt, data, true).slice();
}

/** In-memory data of `dt` from little-endian bytes. */
export function fromLE(dt: DataType, bytes: Uint8Array): TypedArray {
  const n = bytes.length / (dt.byteSize as number);
  return (dt.fromBytes as (b: Uint8Array, n: number, le: boolean) => DataArray).call(dt, bytes.slice(), n, true) as TypedArray;
}

export const b64 = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("base64");
export const unb64 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, "base64"));

/**
 * Runs a Python script with numpy and numcodecs imported; the script reads `data` (the
 * JSON input) and must print one JSON document. Skips the running test (outside CI) when
 * Debian's python3-numcodecs is missing.
 */
export function python<T>(script: string, input: unknown): T {
  requirePythonZarr();
  const prelude = [
    "import base64, json, sys, math, zlib",
    "import numpy as np, numcodecs",
    "data = json.load(sys.stdin)",
    "b64 = lambda b: base64.b64encode(bytes(b)).decode()",
    "unb64 = base64.b64decode",
    "",
  ].join("\n");
  const out = execFileSync("/usr/bin/python3", ["-c", prelude + script], {
    input: JSON.stringify(input, (_k, v) => (typeof v === "bigint" ? Number(v) : v)),
    maxBuffer: 256 * 1024 * 1024,
  });
  return JSON.parse(out.toString()) as T;
}

/**
 * True when two arrays hold the same values: bit for bit, except that any NaN equals any
 * NaN (NumPy and V8 may produce NaNs with different payloads).
 */
export function sameValues(a: ArrayLike<number | bigint>, b: ArrayLike<number | bigint>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (typeof x === "number" && typeof y === "number" && Number.isNaN(x) && Number.isNaN(y)) continue;
    if (!Object.is(x, y)) return false;
  }
  return true;
}

/** The first index where two arrays differ (NaN equal to NaN), for failure messages. */
export function firstDifference(a: ArrayLike<number | bigint>, b: ArrayLike<number | bigint>): string {
  if (a.length !== b.length) return `lengths ${a.length} and ${b.length}`;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (typeof x === "number" && typeof y === "number" && Number.isNaN(x) && Number.isNaN(y)) continue;
    if (!Object.is(x, y)) return `index ${i}: ${String(x)} vs ${String(y)}`;
  }
  return "none";
}


/** Random bytes from a seed. */
export function randomBytes(n: number, seed: number): Uint8Array {
  const r = rng(seed);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.floor(r() * 256);
  return out;
}

/**
 * Runs several Python jobs in one interpreter (NumPy's import dominates a short job):
 * each job is a function body over `data` (its input) ending in `return <JSON-able>`.
 */
export function pythonJobs<T>(jobs: Record<string, { body: string; input: unknown }>): T {
  const names = Object.keys(jobs);
  const indent = (body: string) =>
    body
      .trim()
      .split("\n")
      .map((line) => `    ${line}`)
      .join("\n");
  const script = [
    "import warnings",
    "warnings.simplefilter('ignore')",
    "results = {}",
    ...names.flatMap((name) => [`def job_${name}(data):`, indent(jobs[name].body), `results[${JSON.stringify(name)}] = job_${name}(data[${JSON.stringify(name)}])`]),
    "print(json.dumps(results))",
  ].join("\n");
  return python<T>(script, Object.fromEntries(names.map((n) => [n, jobs[n].input])));
}

/** The elements of any typed array (or array) as a plain array, for comparisons. */
export function list(a: unknown): (number | bigint)[] {
  return Array.from(a as ArrayLike<number | bigint>);
}

/**
 * True when the numcodecs reference is missing outside CI: suites whose data comes from
 * Python in `beforeAll` skip themselves then (in CI a missing reference fails instead).
 */
export const NO_PYTHON: boolean = skipWithout(havePythonZarr(), "python3-numcodecs (numcodecs 0.11 reference)");

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32, shared by the tests). */
export { rng };
