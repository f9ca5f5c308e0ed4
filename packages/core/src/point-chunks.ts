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
 * Two passes over the points in order (no random access into the coordinate lists, which
 * may hold millions): one finds each point's chunk, the other copies the points'
 * chunk-local indices, grouped by chunk, into one buffer per dimension.
 */
export function groupPointsByChunk(resolved: ResolvedPoints, grid: ChunkGrid, shape: readonly number[]): PointChunk[] {
  const { coords, count } = resolved;
  const ndim = shape.length;
  // A chunk's linear index in C order over the grid identifies it (exact below 2^53 chunks).
  const gridStrides = new Array<number>(ndim);
  let chunksInGrid = 1;
  for (let d = ndim - 1; d >= 0; d--) {
    gridStrides[d] = chunksInGrid;
    chunksInGrid *= grid.dims[d].count;
  }
  // Chunk → group: a table when the grid is not much larger than the selection, else a map.
  const table = chunksInGrid <= Math.max(1 << 16, 4 * count) ? new Int32Array(chunksInGrid).fill(-1) : undefined;
  const map = table === undefined ? new Map<number, number>() : undefined;
  const groupOf = new Int32Array(count);
  const sizes: number[] = [];
  const firstPoints: number[] = [];
  for (let p = 0; p < count; p++) {
    let linear = 0;
    for (let d = 0; d < ndim; d++) linear += grid.dims[d].chunkOf(coords[d][p]) * gridStrides[d];
    let g = table !== undefined ? table[linear] : (map?.get(linear) ?? -1);
    if (g < 0) {
      g = sizes.length;
      if (table !== undefined) table[linear] = g;
      else map?.set(linear, g);
      sizes.push(0);
      firstPoints.push(p);
    }
    groupOf[p] = g;
    sizes[g]++;
  }
  const groups = sizes.length;
  const chunkCoords = firstPoints.map((p) => coords.map((c, d) => grid.dims[d].chunkOf(c[p])));
  const starts = coords.map((_, d) => Float64Array.from(chunkCoords, (cc) => grid.dims[d].start(cc[d])));
  const offsets = new Float64Array(groups + 1);
  for (let g = 0; g < groups; g++) offsets[g + 1] = offsets[g] + sizes[g];
  const next = offsets.slice(0, groups);
  const points = new Float64Array(count);
  const local = coords.map(() => new Float64Array(count));
  for (let p = 0; p < count; p++) {
    const g = groupOf[p];
    const o = next[g]++;
    points[o] = p;
    for (let d = 0; d < ndim; d++) local[d][o] = coords[d][p] - starts[d][g];
  }
  const out: PointChunk[] = [];
  for (let g = 0; g < groups; g++) {
    const a = offsets[g];
    const b = offsets[g + 1];
    const chunkStarts = starts.map((s) => s[g]);
    out.push(
      describeChunk(
        chunkCoords[g],
        points.subarray(a, b),
        local.map((l) => l.subarray(a, b)),
        grid.chunkShape(chunkCoords[g]),
        chunkStarts,
        shape,
      ),
    );
  }
  return out;
}

/** One chunk's block and its points' positions, from the points' chunk-local indices per dimension. */
function describeChunk(
  coords: number[],
  points: Float64Array,
  local: Float64Array[],
  chunkShape: readonly number[],
  starts: readonly number[],
  shape: readonly number[],
): PointChunk {
  const ndim = shape.length;
  const n = points.length;
  const block: Float64Array[] = [];
  // Per dimension, each point's position in the block along it.
  const posAlong: Float64Array[] = [];
  let covers = true;
  for (let d = 0; d < ndim; d++) {
    const { distinct, positions } = distinctPositions(local[d], chunkShape[d]);
    block.push(distinct);
    posAlong.push(positions);
    // Every in-array position along d is some point's index along d.
    covers &&= distinct.length === Math.min(chunkShape[d], shape[d] - starts[d]);
  }
  const inBlock = new Float64Array(n);
  const inChunk = new Float64Array(n);
  for (let d = 0; d < ndim; d++) {
    const size = block[d].length;
    const extent = chunkShape[d];
    const pos = posAlong[d];
    const along = local[d];
    for (let k = 0; k < n; k++) {
      inBlock[k] = inBlock[k] * size + pos[k];
      inChunk[k] = inChunk[k] * extent + along[k];
    }
  }
  return { coords, points, block, inBlock, inChunk, covers };
}

/**
 * The distinct values of `local` (chunk-local indices in `[0, extent)`), ascending, and
 * each entry's position among them. A table over the extent when that is not much
 * larger than the list (linear time), else a sort (the extent of one chunk dimension
 * may be far larger than the few points in it).
 */
function distinctPositions(local: Float64Array, extent: number): { distinct: Float64Array; positions: Float64Array } {
  const n = local.length;
  const positions = new Float64Array(n);
  if (extent <= 4 * n + 1024) {
    const slot = new Int32Array(extent).fill(-1);
    for (let k = 0; k < n; k++) slot[local[k]] = 0;
    let count = 0;
    for (let v = 0; v < extent; v++) if (slot[v] === 0) slot[v] = count++;
    const distinct = new Float64Array(count);
    for (let v = 0; v < extent; v++) if (slot[v] >= 0) distinct[slot[v]] = v;
    for (let k = 0; k < n; k++) positions[k] = slot[local[k]];
    return { distinct, positions };
  }
  const sorted = Float64Array.from(local).sort();
  let count = 0;
  for (let k = 0; k < n; k++) if (k === 0 || sorted[k] !== sorted[k - 1]) sorted[count++] = sorted[k];
  const distinct = sorted.slice(0, count);
  for (let k = 0; k < n; k++) {
    // binary search: distinct holds local[k]
    let lo = 0;
    let hi = count - 1;
    const v = local[k];
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (distinct[mid] < v) lo = mid + 1;
      else hi = mid;
    }
    positions[k] = lo;
  }
  return { distinct, positions };
}

/** The block of a chunk as chunk-local indexers (one list of indices per dimension). */
export function blockSelection(chunk: PointChunk): DimIndexer[] {
  return chunk.block.map((indices) => ({ indices }));
}

/** The shape of a chunk's block. */
export function blockShape(chunk: PointChunk): number[] {
  return chunk.block.map((b) => b.length);
}
