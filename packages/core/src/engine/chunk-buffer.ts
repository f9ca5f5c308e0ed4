/**
 * Reused chunk-sized buffers for writes: `set` assembles each chunk's elements in one
 * before encoding it. Only writes import this (bundle size: readers never load it).
 */
import { type ChunkSpec, cStrides, type DataType, type NdArray, shapeSize } from "@zarr/spec";
import { checkChunkFits } from "../limits.js";
import { memoryStorage } from "./memory-storage.js";
import { giveScratch, takeScratch } from "./scratch.js";

/** A chunk-sized array from {@link takeChunkBuffer}. */
export interface ChunkBuffer {
  chunk: NdArray;
  release(): void;
}

/**
 * A reused buffer for the elements of one chunk of `spec`'s shape, in C order, with
 * undefined contents; on shared memory when workers may encode it (`onShared`: the
 * executor's `wantsSharedResult`). Give it back with `release` once nothing reads it any
 * more (its encoded bytes are written). Data types whose elements are not plain memory
 * (strings, objects) get a fresh array. Checked against `maxChunkBytes` first.
 */
export async function takeChunkBuffer(dataType: DataType, spec: ChunkSpec, maxChunkBytes: number, onShared: boolean): Promise<ChunkBuffer> {
  await checkChunkFits(spec, "(chunk buffer)", maxChunkBytes);
  const { shape } = spec;
  const n = shapeSize(shape);
  const stride = cStrides(shape);
  const Storage = memoryStorage(dataType);
  if (Storage === undefined) return { chunk: { data: dataType.allocate(n), shape, stride }, release() {} };
  const bytes = takeScratch(n * dataType.width * Storage.BYTES_PER_ELEMENT, onShared);
  const data = new Storage(bytes.buffer, 0, n * dataType.width);
  return { chunk: { data, shape, stride }, release: () => giveScratch(bytes) };
}
