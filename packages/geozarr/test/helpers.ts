/** Shared test helpers: small GeoZarr stores, reference reductions, Python. */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createArray, get, MemoryStore, openArray, type Registry, set } from "@zarr/core";
import type { JsonObject, JsonValue, Store } from "@zarr/spec";
import { fixturesDir, requirePythonZarr } from "../../../scripts/test-env.mjs";
import { type Affine, createDataset } from "../src/index.js";

/** Reads a GeoZarr fixture file as JSON. */
export function fixture(...parts: string[]): JsonObject {
  return JSON.parse(readFileSync(join(fixturesDir(), "geozarr", ...parts), "utf8")) as JsonObject;
}

/** Writes `zarr.json` documents straight into a store (metadata-only hierarchies). */
export async function writeDocs(docs: Record<string, JsonObject>, store = new MemoryStore()): Promise<MemoryStore> {
  for (const [path, doc] of Object.entries(docs)) {
    const key = path === "" ? "zarr.json" : `${path}/zarr.json`;
    await store.set(key, new TextEncoder().encode(JSON.stringify(doc)));
  }
  return store;
}

/** A group document. */
export function group(attributes: JsonObject = {}): JsonObject {
  return { zarr_format: 3, node_type: "group", attributes };
}

/** An array document (metadata only). */
export function array(shape: number[], dimensionNames: (string | null)[] | null, attributes: JsonObject = {}, dataType = "float32"): JsonObject {
  const doc: JsonObject = {
    zarr_format: 3,
    node_type: "array",
    shape,
    data_type: dataType,
    chunk_grid: { name: "regular", configuration: { chunk_shape: shape.map((n) => Math.max(1, n)) } },
    chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
    fill_value: 0,
    codecs: [{ name: "bytes", configuration: { endian: "little" } }],
    attributes,
  };
  if (dimensionNames !== null) doc.dimension_names = dimensionNames;
  return doc;
}

/** A Dataset with one or more 2-D variables of the given values. */
export async function dataset(
  variables: Record<string, { data: ArrayLike<number> | Uint8Array; dataType: string; attributes?: JsonObject; shape?: number[]; dims?: string[] }>,
  grid: { shape: [number, number]; transform?: Affine; code?: string; chunk?: number[] },
  store: Store = new MemoryStore(),
  registry?: Registry,
): Promise<Store> {
  const transform = grid.transform ?? [10, 0, 500000, 0, -10, 5000000];
  await createDataset(store, "", { crs: { code: grid.code ?? "EPSG:32633" }, spatial: { dimensions: ["y", "x"], transform, shape: grid.shape }, registry });
  for (const [name, v] of Object.entries(variables)) {
    const shape = v.shape ?? grid.shape;
    const dims = v.dims ?? ["y", "x"];
    const arr = await createArray(store, name, {
      shape,
      chunkShape: grid.chunk ?? shape.map((n) => Math.min(n, 32)),
      dataType: v.dataType,
      dimensionNames: dims,
      attributes: v.attributes ?? {},
      fillValue: v.dataType.startsWith("float") ? Number.NaN : 0,
      registry,
    });
    await set(arr, null, v.data as never);
    if (dims.length === 3 && !(await store.get(`${dims[0]}/zarr.json`))) {
      const c = await createArray(store, dims[0], { shape: [shape[0]], dataType: "int32", dimensionNames: [dims[0]], registry });
      await set(c, null, Int32Array.from({ length: shape[0] }, (_, i) => i + 1));
    }
  }
  return store;
}

/** Reads a whole array as numbers. */
export async function values(store: Store, path: string, registry?: Registry): Promise<{ data: number[]; shape: number[] }> {
  const a = await openArray(store, path, { registry });
  const r = await get(a, null);
  return { data: Array.from(r.data as ArrayLike<number>, Number), shape: r.shape };
}

/** Runs Python (numpy) with a JSON input on stdin; returns its JSON output. Skips when Python is missing outside CI. */
export function python(code: string, input: JsonValue): JsonValue {
  requirePythonZarr();
  const out = execFileSync("/usr/bin/python3", ["-c", code], {
    input: JSON.stringify(input),
    encoding: "utf8",
    maxBuffer: 1 << 28,
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" },
  });
  return JSON.parse(out) as JsonValue;
}
