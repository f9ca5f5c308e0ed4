/**
 * Bounds on memory allocated because metadata says so: a chunk's decoded size and one
 * element's size in memory, checked against the array's `maxChunkBytes` before anything
 * is allocated (a 49-byte `zarr.json` must not make a reader allocate gigabytes). The
 * errors, which only oversized arrays meet, are in limit-errors.ts, loaded when a bound
 * is exceeded (bundle size).
 */
import { type ChunkSpec, type DataType, DEFAULT_MAX_CHUNK_BYTES, shapeSize, ZarrError } from "@zarr/spec";
import type { ElementMemory } from "./limit-errors.js";

/** Bytes a JavaScript value takes in an array or object slot (a pointer or small integer). */
export const SLOT_BYTES = 8;

/**
 * About how many bytes one element of `dataType` takes in memory once decoded: its binary
 * size for types stored as typed arrays, more for structs, whose sub-array fields become
 * JavaScript arrays of one slot per element. Variable-size types count one slot.
 */
export function elementMemoryBytes(dataType: DataType): number {
  return (dataType as ElementMemory).elementMemoryBytes ?? dataType.byteSize ?? SLOT_BYTES;
}

/** About how many bytes a chunk of `spec` takes in memory, decoded. */
export function chunkMemoryBytes(spec: ChunkSpec): number {
  return shapeSize(spec.shape) * elementMemoryBytes(spec.dataType);
}

/** Validates a `maxChunkBytes` option; undefined gives the default. */
export function checkMaxChunkBytes(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_CHUNK_BYTES;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) {
    throw new ZarrError("INVALID_ARGUMENT", `maxChunkBytes must be a positive integer, got ${String(value)}`);
  }
  return value;
}

/**
 * Resolves when one element of `dataType` fits in `maxChunkBytes`; otherwise rejects
 * with the error of limit-errors.ts `elementTooLarge`, loaded for it.
 */
export async function checkElementFits(dataType: DataType, maxChunkBytes: number, key: string): Promise<void> {
  const bytes = elementMemoryBytes(dataType);
  if (bytes > maxChunkBytes) throw (await import("./limit-errors.js")).elementTooLarge(dataType, bytes, maxChunkBytes, key);
}

/**
 * Resolves when a chunk of `spec` fits in `maxChunkBytes` decoded; otherwise rejects with
 * the error of limit-errors.ts `chunkTooLarge`, loaded for it.
 */
export async function checkChunkFits(spec: ChunkSpec, key: string, maxChunkBytes: number): Promise<void> {
  const bytes = chunkMemoryBytes(spec);
  if (bytes > maxChunkBytes) throw (await import("./limit-errors.js")).chunkTooLarge(spec, bytes, maxChunkBytes, key);
}
