/**
 * Typed-array classes for results and chunk buffers that workers share or that are reused:
 * for the modules that load with those (read-out.ts, chunk-buffer.ts), apart from the
 * executor, so a plain read does not load it (bundle size).
 */
import type { DataType, TypedArray } from "@zarr/spec";

/** A typed-array class, as `memoryStorage` gives it. */
export interface TypedArrayConstructor {
  new (buffer: ArrayBufferLike, byteOffset?: number, length?: number): TypedArray;
  BYTES_PER_ELEMENT: number;
}

/**
 * The typed-array class of `dataType`'s storage when its elements are plain memory (so a
 * view over any buffer, shared or reused, can hold them); undefined for strings, objects.
 */
export function memoryStorage(dataType: DataType): TypedArrayConstructor | undefined {
  const empty = dataType.allocate(0);
  return dataType.bytesAreMemory === true && ArrayBuffer.isView(empty) ? (empty.constructor as unknown as TypedArrayConstructor) : undefined;
}
