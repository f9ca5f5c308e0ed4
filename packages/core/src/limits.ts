/**
 * Bounds on memory allocated because metadata says so: a chunk's decoded size and one
 * element's size in memory, checked against the array's `maxChunkBytes` before anything is
 * allocated (a 49-byte `zarr.json` must not make a reader allocate gigabytes).
 */
import { type ChunkSpec, type DataType, DEFAULT_MAX_CHUNK_BYTES, shapeSize, ZarrError } from "@zarr/spec";

/** Bytes a JavaScript value takes in an array or object slot (a pointer or small integer). */
export const SLOT_BYTES = 8;

/**
 * What a data type whose elements are JavaScript objects with sub-arrays (`struct`) says
 * about their size in memory. Read by shape, not by class: importing the struct module
 * here would load it (a lazy entry) with every array.
 */
interface ElementMemory {
  /** About how many bytes one element takes in memory. */
  readonly elementMemoryBytes?: number;
  /** What makes an element that large, for the error (` (its field "x" holds …)`). */
  readonly elementMemoryDetail?: string;
}

/** The `UNSUPPORTED` errors of the memory bounds below: a resource limit, not a missing extension. */
const memoryLimits = new WeakSet<ZarrError>();

function memoryLimit(code: "UNSUPPORTED", message: string, context: { key: string; jsonPath?: string }): ZarrError {
  const error = new ZarrError(code, message, context);
  memoryLimits.add(error);
  return error;
}

/** True for the error of a memory bound (`maxChunkBytes`), which opening never defers. */
export function isMemoryLimitError(error: unknown): boolean {
  return error instanceof ZarrError && memoryLimits.has(error);
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
 * About how many bytes one element of `dataType` takes in memory once decoded: its binary
 * size for types stored as typed arrays, more for structs, whose sub-array fields become
 * JavaScript arrays of one slot per element. Variable-size types count one slot.
 */
export function elementMemoryBytes(dataType: DataType): number {
  return (dataType as ElementMemory).elementMemoryBytes ?? dataType.byteSize ?? SLOT_BYTES;
}

/**
 * Fails with `UNSUPPORTED` (naming the metadata document `key` and `$.data_type`) when one
 * element of `dataType` would take more than `maxChunkBytes` in memory (a struct with a
 * huge sub-array field): even the fill value could not be held then. Not
 * `METADATA_INVALID`: the document is valid, and a larger `maxChunkBytes` reads it.
 */
export function checkElementMemory(dataType: DataType, maxChunkBytes: number, key: string): void {
  const bytes = elementMemoryBytes(dataType);
  if (bytes <= maxChunkBytes) return;
  const detail = (dataType as ElementMemory).elementMemoryDetail ?? "";
  throw memoryLimit(
    "UNSUPPORTED",
    `One element of the data type at $.data_type in "${key}" takes about ${bytes} bytes in memory${detail}, more than maxChunkBytes (${maxChunkBytes}); open the array with a larger maxChunkBytes to read it`,
    { key, jsonPath: "$.data_type" },
  );
}

/**
 * Fails with `UNSUPPORTED` when a chunk of `spec` would take more than `maxChunkBytes` in
 * memory, decoded: checked before a chunk is read, decoded or allocated.
 */
export function checkChunkMemory(spec: ChunkSpec, key: string, maxChunkBytes: number): void {
  const bytes = shapeSize(spec.shape) * elementMemoryBytes(spec.dataType);
  if (bytes <= maxChunkBytes) return;
  throw memoryLimit(
    "UNSUPPORTED",
    `Chunk "${key}" of shape [${spec.shape.join(", ")}] takes ${bytes} bytes decoded, more than maxChunkBytes (${maxChunkBytes}); open the array with a larger maxChunkBytes to read it`,
    { key },
  );
}
