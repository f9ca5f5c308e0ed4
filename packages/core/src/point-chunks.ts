/**
 * Groups the points of a pointwise selection by the chunk holding them, so that each
 * chunk is one task (one read, one write) however many points fall in it. For each
 * chunk it also builds the smallest orthogonal block covering its points (the distinct
 * chunk-local indices along each dimension): that block is what is decoded, through
 * the same partial decoders as orthogonal selections (a shard decodes only the inner
 * chunks the block touches), and the points are gathered from it or scattered into it.
 */
import type { ChunkGrid, DimIndexer } from "@zarr/spec";
import type { ResolvedPoints } from "./points.js";

/** The points of one chunk. */
export interface PointChunk {
  /** Chunk grid coordinates. */
  coords: number[];
  /** The points' positions in the selection's result (C order), in selection order. */
  points: Float64Array;
  /** Per dimension, the distinct chunk-local indices of the points, ascending: the block. */
  block: Float64Array[];
  /** Each point's C-order position within the block, in the order of `points`. */
  inBlock: Float64Array;
  /** Each point's C-order position within the whole chunk of `chunkShape`. */
  inChunk: Float64Array;
  /** The block holds every element of the chunk that lies inside the array. */
  covers: boolean;
}

/**
 * The chunks `resolved` touches, each with its points in selection order (so that of
 * repeated points the last one is written last), chunks in order of first appearance.
 */
export function groupPointsByChunk(resolved: ResolvedPoints, grid: ChunkGrid, shape: readonly number[]): PointChunk[] {
  const { coords, count } = resolved;
  const ndim = shape.length;
  // A chunk's linear index in C order over the grid identifies it (exact below 2^53 chunks).
  const gridStrides = new Array<number>(ndim);
  for (let d = ndim - 1, s = 1; d >= 0; d--) {
    gridStrides[d] = s;
    s *= grid.dims[d].count;
  }
  const members = new Map<number, number[]>();
  for (let p = 0; p < count; p++) {
    let linear = 0;
    for (let d = 0; d < ndim; d++) linear += grid.dims[d].chunkOf(coords[d][p]) * gridStrides[d];
    const list = members.get(linear);
    if (list === undefined) members.set(linear, [p]);
    else list.push(p);
  }
  const out: PointChunk[] = [];
  for (const list of members.values()) out.push(describeChunk(list, resolved, grid, shape));
  return out;
}

function describeChunk(list: number[], resolved: ResolvedPoints, grid: ChunkGrid, shape: readonly number[]): PointChunk {
  const ndim = shape.length;
  const first = list[0];
  const chunkCoords = new Array<number>(ndim);
  const starts = new Array<number>(ndim);
  for (let d = 0; d < ndim; d++) {
    chunkCoords[d] = grid.dims[d].chunkOf(resolved.coords[d][first]);
    starts[d] = grid.dims[d].start(chunkCoords[d]);
  }
  const chunkShape = grid.chunkShape(chunkCoords);
  const n = list.length;
  const block: Float64Array[] = [];
  const blockPos: Map<number, number>[] = [];
  let covers = true;
  for (let d = 0; d < ndim; d++) {
    const distinct = new Set<number>();
    for (const p of list) distinct.add(resolved.coords[d][p] - starts[d]);
    const sorted = Float64Array.from(distinct).sort();
    block.push(sorted);
    blockPos.push(new Map(Array.from(sorted, (v, i) => [v, i])));
    // Every in-array position along d is some point's index along d.
    const inArray = Math.min(chunkShape[d], shape[d] - starts[d]);
    covers &&= sorted.length === inArray;
  }
  const points = Float64Array.from(list);
  const inBlock = new Float64Array(n);
  const inChunk = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const p = list[k];
    let b = 0;
    let c = 0;
    for (let d = 0; d < ndim; d++) {
      const local = resolved.coords[d][p] - starts[d];
      b = b * block[d].length + (blockPos[d].get(local) as number);
      c = c * chunkShape[d] + local;
    }
    inBlock[k] = b;
    inChunk[k] = c;
  }
  return { coords: chunkCoords, points, block, inBlock, inChunk, covers };
}

/** The block of a chunk as chunk-local indexers (one list of indices per dimension). */
export function blockSelection(chunk: PointChunk): DimIndexer[] {
  return chunk.block.map((indices) => ({ indices }));
}

/** The shape of a chunk's block. */
export function blockShape(chunk: PointChunk): number[] {
  return chunk.block.map((b) => b.length);
}
