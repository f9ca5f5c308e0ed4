/**
 * Bounds on memory allocated because metadata says so: a chunk's decoded size and one
 * element's size in memory, checked against the array's `maxChunkBytes` before anything
 * is allocated (a 49-byte `zarr.json` must not make a reader allocate gigabytes). The
 * errors, which only oversized arrays meet, are in limit-errors.ts, loaded when a bound
 * is exceeded (bundle size).
 */
import { type ChunkSpec, type DataType, DEFAULT_MAX_CHUNK_BYTES, shapeSize } from "@zarr/spec";
import type { ElementMemory } from "./limit-errors.js";
import type { MemoryLimits } from "./limit-options.js";

/**
 * Loads limit-errors.ts, for a bound exceeded. One import site for the module's callers
 * here and in pipeline.ts, so its chunk's name ships once (bundle size).
 */
export const limitErrors = () => import("./limit-errors.js");

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

/**
 * The default `maxDecodeRatio`: a chunk whose decoded size its spec does not fix
 * (variable-length strings and bytes) may decode to at most 1000 times its stored size,
 * as archive tools bound decompression against bombs (real data rarely compresses past
 * a few hundred to one).
 */
export const DEFAULT_MAX_DECODE_RATIO = 1000;

/**
 * What a chunk of unknown decoded size may always decode to, whatever its ratio: 64 MiB.
 * A tiny chunk of empty or repeated strings compresses far past any ratio, and decoding
 * 64 MiB is quick; a bomb is stopped here, not gigabytes later.
 */
export const DECODE_RATIO_FLOOR = 64 * 1024 * 1024;

/**
 * The memory bounds `options` give an array, checked (limit-options.ts, loaded only when an
 * option is given: most apps never give one), or the defaults.
 */
export async function memoryLimits(options: Partial<MemoryLimits>): Promise<MemoryLimits> {
  const { maxChunkBytes = DEFAULT_MAX_CHUNK_BYTES, maxDecodeRatio = DEFAULT_MAX_DECODE_RATIO } = options;
  const limits = { maxChunkBytes, maxDecodeRatio };
  // The defaults need no check (nor does an option equal to its default).
  return maxChunkBytes === DEFAULT_MAX_CHUNK_BYTES && maxDecodeRatio === DEFAULT_MAX_DECODE_RATIO
    ? limits
    : (await import("./limit-options.js")).checkedLimits(limits);
}

/**
 * The most bytes `stored` bytes of a chunk of unknown decoded size may decode to:
 * `maxDecodeRatio` times as many, but never less than {@link DECODE_RATIO_FLOOR}.
 */
export function ratioBound(stored: number, maxDecodeRatio: number): number {
  return Math.max(DECODE_RATIO_FLOOR, stored * maxDecodeRatio);
}

/**
 * Resolves when one element of `dataType` fits in `maxChunkBytes`; otherwise rejects
 * with the error of limit-errors.ts `elementTooLarge`, loaded for it.
 */
export async function checkElementFits(dataType: DataType, maxChunkBytes: number, key: string): Promise<void> {
  const bytes = elementMemoryBytes(dataType);
  if (bytes > maxChunkBytes) throw (await limitErrors()).elementTooLarge(dataType, bytes, maxChunkBytes, key);
}

/**
 * Resolves when a chunk of `spec` fits in `maxChunkBytes` decoded; otherwise rejects with
 * the error of limit-errors.ts `chunkTooLarge`, loaded for it.
 */
export async function checkChunkFits(spec: ChunkSpec, key: string, maxChunkBytes: number): Promise<void> {
  const bytes = chunkMemoryBytes(spec);
  if (bytes > maxChunkBytes) throw (await limitErrors()).chunkTooLarge(spec, bytes, maxChunkBytes, key);
}
