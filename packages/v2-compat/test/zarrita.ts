/** Reading converted stores with zarrita.js, for the data types and codecs it supports. */
import type { ArrayMetadata, JsonValue } from "@zarr/spec";
import type { FileSystemStore } from "@zarr/store-fs";
import * as zarrita from "zarrita";

const TYPES = new Set(["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64", "bool", "string"]);
const CODECS = new Set([
  "bytes", "transpose", "blosc", "gzip", "zstd", "crc32c", "vlen-utf8", "numcodecs.zlib", "numcodecs.lz4", "numcodecs.delta",
  "numcodecs.shuffle", "numcodecs.bitround", "numcodecs.json2", "numcodecs.vlen-utf8", "numcodecs.blosc", "numcodecs.zstd", "numcodecs.gzip",
]);

/**
 * True when zarrita.js 0.7 can read an array with this metadata: its data types and codecs,
 * minus what it gets wrong (64-bit fill values beyond 2^53, which it parses with
 * JSON.parse; delta with a different astype; empty arrays).
 */
export function zarritaCanRead(meta: ArrayMetadata): boolean {
  if (!TYPES.has(meta.data_type.name) || !meta.codecs.every((c) => CODECS.has(c.name))) return false;
  if (typeof meta.fill_value === "bigint") return false;
  if (meta.codecs.some((c) => c.name === "numcodecs.delta" && c.configuration.astype !== undefined && c.configuration.astype !== c.configuration.dtype)) return false;
  return meta.shape.every((n) => n > 0);
}

function canonical(v: unknown): JsonValue {
  if (typeof v === "bigint") return String(v);
  if (typeof v === "number") {
    if (Number.isNaN(v)) return "NaN";
    if (!Number.isFinite(v)) return v > 0 ? "Infinity" : "-Infinity";
    return v;
  }
  return v as JsonValue;
}

/** Reads the array at `path` of a directory store with zarrita; values in C order, canonical JSON (ints as strings). */
export async function zarritaRead(store: FileSystemStore, path: string, ints: boolean): Promise<{ shape: number[]; values: JsonValue[] }> {
  const adapter = { get: (key: string) => store.get(key.replace(/^\/+/, "")) };
  const arr = await zarrita.open(zarrita.root(adapter).resolve(path), { kind: "array" });
  const result = await zarrita.get(arr);
  if (arr.shape.length === 0) {
    // 0-d: zarrita returns the element itself
    return { shape: [], values: [ints && typeof result === "number" ? String(result) : canonical(result)] };
  }
  const chunk = result as { data: ArrayLike<unknown> & { get?: (i: number) => unknown }; shape: number[]; stride: number[] };
  const n = chunk.shape.reduce((a, b) => a * b, 1);
  const values: JsonValue[] = [];
  const idx = new Array<number>(chunk.shape.length).fill(0);
  for (let i = 0; i < n; i++) {
    let off = 0;
    for (let d = 0; d < idx.length; d++) off += idx[d] * chunk.stride[d];
    const raw = typeof chunk.data.get === "function" ? chunk.data.get(off) : chunk.data[off];
    values.push(ints && typeof raw === "number" ? String(raw) : canonical(raw));
    for (let d = idx.length - 1; d >= 0; d--) {
      if (++idx[d] < chunk.shape[d]) break;
      idx[d] = 0;
    }
  }
  return { shape: chunk.shape, values };
}
