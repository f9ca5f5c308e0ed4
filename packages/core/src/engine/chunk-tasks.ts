/** The chunk tasks the executor runs (`executor.ts`), on this thread or in a pool (`pool-executor.ts`), and the executor's interface. */
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

/** Runs the chunk tasks of one operation on one array. */
export interface Executor {
  /**
   * True when tasks may run in workers, which can read and write only memory they share
   * with the calling thread: results and chunk buffers should then live on a
   * `SharedArrayBuffer` (see `takeChunkBuffer`).
   */
  readonly wantsSharedResult: boolean;
  /**
   * Reads one chunk into its target; false when the chunk is not stored (the caller
   * fills). A chunk known to be missing is answered synchronously, without a promise.
   */
  read(task: ChunkReadTask): boolean | Promise<boolean>;
  /**
   * Encodes one chunk. The encoded bytes may share memory with `task.chunk` (the `bytes`
   * codec encodes little-endian data as a view): keep the chunk unchanged until they are
   * written.
   */
  encode(task: ChunkEncodeTask): Promise<Uint8Array>;
}
