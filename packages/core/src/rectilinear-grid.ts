/**
 * The `rectilinear` chunk grid (zarr-extensions: chunk-grids/rectilinear): per dimension
 * one chunk size or a list of chunk edge lengths (which may add up to more than the array's
 * length, as the extension allows). Registries load this module the first
 * time an array uses the grid.
 */
import {
  type ChunkGrid,
  type ChunkGridEntry,
  type ChunkGridResizeOptions,
  type DimensionPartition,
  describeJson,
  type ExtensionObject,
  type JsonValue,
  MetadataError,
  ZarrError,
} from "@zarr/spec";
import { checkKeys, GridBase, positiveInt, RegularPartition } from "./up-front.js";

/**
 * Chunks of explicit sizes covering the array's length. The edges may add up to more (the
 * spec allows it): the last chunk then overhangs the array's edge as a regular grid's does,
 * and edges that start beyond the array are kept for the metadata but hold no chunks.
 */
class ExplicitPartition implements DimensionPartition {
  readonly count: number;
  /** starts[i] = first index of chunk i; starts[edges.length] = sum of the edges. */
  private readonly starts: Float64Array;
  constructor(
    readonly edges: readonly number[],
    length: number,
  ) {
    this.starts = new Float64Array(edges.length + 1);
    for (let i = 0; i < edges.length; i++) this.starts[i + 1] = this.starts[i] + edges[i];
    let count = 0;
    while (count < edges.length && this.starts[count] < length) count++;
    this.count = count;
  }
  start(i: number): number {
    return this.starts[i];
  }
  size(i: number): number {
    return this.edges[i];
  }
  chunkOf(index: number): number {
    // binary search for the last start <= index
    let lo = 0;
    let hi = this.count - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.starts[mid] <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}

type RectilinearDim = number | readonly number[];

/**
 * A rectilinear grid: per dimension either one chunk size (regular along it) or a list
 * of chunk edge lengths covering the array's length.
 */
export class RectilinearChunkGrid extends GridBase {
  readonly name = "rectilinear";
  constructor(
    readonly shape: readonly number[],
    readonly spec: readonly RectilinearDim[],
  ) {
    super(spec.map((s, d) => (typeof s === "number" ? new RegularPartition(shape[d], s) : new ExplicitPartition(s, shape[d]))));
  }
  /**
   * The grid for the array resized to `shape`. Along a dimension with listed edges, the
   * existing chunks keep their sizes (their shape is part of how they were encoded):
   * shrinking keeps the edges of the chunks that still hold part of the array (the last
   * one may now overhang the edge) and drops the rest; growing keeps the edges and, when
   * they no longer cover the array, appends new ones (`options.newChunkEdges`, by default
   * one chunk spanning the added extent).
   */
  resize(shape: readonly number[], options: ChunkGridResizeOptions = {}): ChunkGrid {
    const added = options.newChunkEdges;
    if (added !== undefined && (!Array.isArray(added) || added.length > shape.length)) {
      throw new ZarrError("INVALID_ARGUMENT", `newChunkEdges must be an array with at most one entry per dimension (${shape.length}), got ${describeJson(added as JsonValue)}`);
    }
    const next = this.spec.map((s, d) => {
      if (typeof s === "number" || shape[d] === this.shape[d]) return s;
      // The chunks that start inside the new length (at least the first, so the list is never empty).
      const kept: number[] = [];
      let sum = 0;
      for (const e of s) {
        if (sum >= Math.max(shape[d], 1)) break;
        kept.push(e);
        sum += e;
      }
      if (sum < shape[d]) kept.push(...appendedEdges(added?.[d], shape[d] - sum, d));
      return kept;
    });
    return new RectilinearChunkGrid(shape, next);
  }
  toJSON(): ExtensionObject {
    return {
      name: "rectilinear",
      configuration: { kind: "inline", chunk_shapes: this.spec.map((s) => (typeof s === "number" ? s : compressRuns(s))) },
    };
  }
}

/**
 * The edges appended along dimension `d` to cover `missing` more elements: `option` as the
 * caller gave it (a list of edges, or one edge repeated), by default one chunk of `missing`.
 */
function appendedEdges(option: number | readonly number[] | null | undefined, missing: number, d: number): number[] {
  const where = `newChunkEdges[${d}]`;
  if (option === undefined || option === null) return [missing];
  const checkEdge = (e: unknown, at: string): number => {
    if (typeof e !== "number" || !Number.isSafeInteger(e) || e < 1) {
      throw new ZarrError("INVALID_ARGUMENT", `${at} must be a positive integer chunk edge length, got ${describeJson(e as JsonValue)}`);
    }
    return e;
  };
  if (typeof option === "number") {
    const edge = checkEdge(option, where);
    return new Array<number>(Math.ceil(missing / edge)).fill(edge);
  }
  if (!Array.isArray(option)) {
    throw new ZarrError("INVALID_ARGUMENT", `${where} must be a chunk edge length or a list of them, got ${describeJson(option as JsonValue)}`);
  }
  const edges = option.map((e, i) => checkEdge(e, `${where}[${i}]`));
  const total = edges.reduce((a, b) => a + b, 0);
  const beforeLast = total - (edges.at(-1) ?? 0);
  if (total < missing || beforeLast >= missing) {
    throw new ZarrError(
      "INVALID_ARGUMENT",
      `${where} (${JSON.stringify(edges)}, adding up to ${total}) must cover the ${missing} elements added along dimension ${d}, with no chunk starting beyond them`,
    );
  }
  return edges;
}

/** Writes edge lists with `[value, count]` runs where that is shorter. */
function compressRuns(edges: readonly number[]): JsonValue[] {
  const out: JsonValue[] = [];
  let i = 0;
  while (i < edges.length) {
    let j = i;
    while (j < edges.length && edges[j] === edges[i]) j++;
    const run = j - i;
    if (run >= 3) out.push([edges[i], run]);
    else for (let k = i; k < j; k++) out.push(edges[k]);
    i = j;
  }
  return out;
}

/** The `rectilinear` grid entry (zarr-extensions: chunk-grids/rectilinear). */
export const rectilinearChunkGrid: ChunkGridEntry = {
  type: "chunk_grid",
  name: "rectilinear",
  fromConfig(configuration, shape, path) {
    const cpath = [...path, "configuration"];
    checkKeys(configuration, ["kind", "chunk_shapes"], cpath);
    if (configuration.kind !== "inline") {
      throw new MetadataError([...cpath, "kind"], `expected "inline", got ${describeJson(configuration.kind)}`);
    }
    const shapes = configuration.chunk_shapes;
    if (!Array.isArray(shapes) || shapes.length !== shape.length) {
      throw new MetadataError(
        [...cpath, "chunk_shapes"],
        `expected an array with one entry per dimension (${shape.length}), got ${describeJson(shapes)}`,
      );
    }
    const spec = shapes.map((s, d): RectilinearDim => {
      const dpath = [...cpath, "chunk_shapes", d];
      if (typeof s === "number") return positiveInt(s, dpath);
      if (!Array.isArray(s)) throw new MetadataError(dpath, `expected an integer or a list of edge lengths, got ${describeJson(s)}`);
      const edges: number[] = [];
      s.forEach((e, i) => {
        if (Array.isArray(e)) {
          if (e.length !== 2) throw new MetadataError([...dpath, i], "a run must be [edge length, repeat count]");
          const v = positiveInt(e[0], [...dpath, i, 0]);
          const n = positiveInt(e[1], [...dpath, i, 1]);
          if (edges.length + n > 100_000_000) throw new MetadataError([...dpath, i, 1], "too many chunks");
          for (let k = 0; k < n; k++) edges.push(v);
        } else {
          edges.push(positiveInt(e, [...dpath, i]));
        }
      });
      // They must cover the array; more is allowed (the last chunks overhang or lie beyond it).
      const total = edges.reduce((a, b) => a + b, 0);
      if (total < shape[d]) {
        throw new MetadataError(
          dpath,
          `chunk edge lengths add up to ${total}, but the array's length along dimension ${d} is ${shape[d]} (they must cover it)`,
        );
      }
      return edges;
    });
    return new RectilinearChunkGrid(shape, spec);
  },
};
