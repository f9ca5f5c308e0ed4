/** The chunk tasks the executor runs (`executor.ts`), on this thread or in a pool (`pool-executor.ts`). */
import type { ChunkSpec, DecodeTarget, NdArray } from "@zarr/spec";

/** One chunk to read: its key, its representation, and where its selected elements go. */
export interface ChunkReadTask {
  key: string;
  spec: ChunkSpec;
  target: DecodeTarget;
  /** The selection takes every element of the chunk. */
  covers: boolean;
}

/** One chunk to encode: its key, its representation, and its elements (C order). */
export interface ChunkEncodeTask {
  key: string;
  spec: ChunkSpec;
  chunk: NdArray;
}
