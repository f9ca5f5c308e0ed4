/**
 * The errors of the memory bounds of limits.ts (`maxChunkBytes`): a resource limit, not a
 * missing extension or a broken document. Loaded when a bound is exceeded.
 */
import type { ChunkSpec, DataType } from "@zarr/spec";
// From spec-shared.ts, not up-front.ts (which re-exports limits.ts, which loads this module).
import { ZarrError } from "./spec-shared.js";

/**
 * What a data type whose elements are JavaScript objects with sub-arrays (`struct`) says
 * about their size in memory. Read by shape, not by class: importing the struct module
 * into limits.ts would load it (a lazy entry) with every array.
 */
export interface ElementMemory {
  /** About how many bytes one element takes in memory. */
  readonly elementMemoryBytes?: number;
  /** What makes an element that large, for the error (` (its field "x" holds …)`). */
  readonly elementMemoryDetail?: string;
}

/** The `UNSUPPORTED` errors of the memory bounds below. */
const memoryLimits = new WeakSet<ZarrError>();

function memoryLimit(message: string, context: { key: string; jsonPath?: string }): ZarrError {
  const error = new ZarrError("UNSUPPORTED", message, context);
  memoryLimits.add(error);
  return error;
}

/** True for the error of a memory bound (`maxChunkBytes`), which opening never defers. */
export function isMemoryLimitError(error: unknown): boolean {
  return error instanceof ZarrError && memoryLimits.has(error);
}

/** The advice every bound's message ends with. */
const ADVICE = "open the array with a larger maxChunkBytes to read it";

/**
 * The `UNSUPPORTED` error (naming the metadata document `key` and `$.data_type`) of a
 * data type one element of which takes `bytes` in memory, more than `maxChunkBytes` (a
 * struct with a huge sub-array field): even the fill value could not be held then. Not
 * `METADATA_INVALID`: the document is valid, and a larger `maxChunkBytes` reads it.
 */
export function elementTooLarge(dataType: DataType, bytes: number, maxChunkBytes: number, key: string): ZarrError {
  const detail = (dataType as ElementMemory).elementMemoryDetail ?? "";
  return memoryLimit(
    `One element of the data type at $.data_type in "${key}" takes about ${bytes} bytes in memory${detail}, more than maxChunkBytes (${maxChunkBytes}); ${ADVICE}`,
    { key, jsonPath: "$.data_type" },
  );
}

/**
 * The `UNSUPPORTED` error of a chunk of `spec` that takes `bytes` in memory decoded, more
 * than `maxChunkBytes`: checked before a chunk is read, decoded or allocated.
 */
export function chunkTooLarge(spec: ChunkSpec, bytes: number, maxChunkBytes: number, key: string): ZarrError {
  return memoryLimit(
    `Chunk "${key}" of shape [${spec.shape.join(", ")}] takes ${bytes} bytes decoded, more than maxChunkBytes (${maxChunkBytes}); ${ADVICE}`,
    { key },
  );
}

/** The `UNSUPPORTED` error of a chunk whose codec chain fixes a decoded size above `maxChunkBytes`. */
export function decodesTooLarge(key: string, size: number, maxChunkBytes: number): ZarrError {
  return new ZarrError("UNSUPPORTED", `Chunk "${key}" decodes to ${size} bytes, more than the array's maxChunkBytes (${maxChunkBytes}); ${ADVICE}`, { key });
}

/**
 * `error` (a codec's failure to decode chunk `error.key` within `limit` bytes, a bound set
 * by `maxDecodeRatio` from the `stored` bytes) with what bounded it and how to lift it:
 * the same code, the codec's message first. The ratio bound may not be the cause (the data
 * may be corrupt), so the note says what the bound was rather than blaming it.
 */
export function ratioExceeded(error: ZarrError, stored: number, limit: number, maxDecodeRatio: number): ZarrError {
  return new ZarrError(
    error.code,
    `${error.message} [the chunk's ${stored} stored bytes may decode to at most ${limit} bytes: maxDecodeRatio ${maxDecodeRatio} times as many, or 64 MiB; a decompression bomb stops here. If the data is sound, open the array with a larger maxDecodeRatio (zarr: --max-ratio)]`,
    { key: error.key, jsonPath: error.jsonPath, cause: error },
  );
}
