/** Chunk grids and chunk key encodings: where chunks are, and what their keys are. */
import type { JsonPath } from "./errors.js";
import type { ExtensionObject } from "./extension.js";
import type { JsonObject } from "./json.js";

/**
 * How one dimension is partitioned into chunks. For a regular grid every chunk has
 * the same nominal size (the last one overhangs the array's edge); for a rectilinear
 * grid sizes vary and add up to the array's length.
 */
export interface DimensionPartition {
  /** Number of chunks along this dimension. */
  readonly count: number;
  /** Array index where chunk `i` starts. */
  start(i: number): number;
  /** Nominal size of chunk `i` (the chunk's shape along this dimension). */
  size(i: number): number;
  /** The chunk holding array index `index` (0 ≤ index < array length). */
  chunkOf(index: number): number;
  /**
   * The size every chunk has, when they all have one (a regular grid): lazy projections
   * (`rangeProjections`) then find the i-th chunk a range touches by arithmetic instead of
   * walking the chunks before it. Leave it out when sizes vary.
   */
  readonly uniformSize?: number;
}

/** A chunk grid resolved for an array shape. */
export interface ChunkGrid {
  readonly name: string;
  /** One partition per array dimension. */
  readonly dims: readonly DimensionPartition[];
  /** Chunks per dimension. */
  readonly gridShape: readonly number[];
  /** Shape of the chunk at grid coordinates `coords`. */
  chunkShape(coords: readonly number[]): number[];
  /** The same grid for an array resized to `shape` (throws `UNSUPPORTED` when impossible). */
  resize(shape: readonly number[], options?: ChunkGridResizeOptions): ChunkGrid;
  toJSON(): ExtensionObject;
}

/** Options of `ChunkGrid.resize`: how a grid with explicit chunk edges grows. */
export interface ChunkGridResizeOptions {
  /**
   * Per dimension, the chunk edges to append when the array grows along a dimension whose
   * chunk edges are listed (the `rectilinear` grid): a list of edge lengths, or one length
   * repeated until the new length is covered. `undefined`/`null` (the default): one new
   * chunk spanning the added extent. Ignored for dimensions that do not grow or whose
   * chunks are regular.
   */
  newChunkEdges?: readonly (number | readonly number[] | null | undefined)[];
}

/** A chunk grid as registered. */
export interface ChunkGridEntry {
  readonly type: "chunk_grid";
  readonly name: string;
  readonly aliases?: readonly string[];
  readonly package?: string;
  fromConfig(configuration: JsonObject, shape: readonly number[], path: JsonPath): ChunkGrid;
}

/** Turns chunk grid coordinates into store keys (relative to the array) and back. */
export interface ChunkKeyEncoding {
  readonly name: string;
  encode(coords: readonly number[]): string;
  /** Grid coordinates of a key, or `undefined` when `key` is not a chunk key of this encoding. */
  decode(key: string, ndim: number): number[] | undefined;
  toJSON(): ExtensionObject;
}

/** A chunk key encoding as registered. */
export interface ChunkKeyEncodingEntry {
  readonly type: "chunk_key_encoding";
  readonly name: string;
  readonly aliases?: readonly string[];
  readonly package?: string;
  fromConfig(configuration: JsonObject, path: JsonPath): ChunkKeyEncoding;
}
