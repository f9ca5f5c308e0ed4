/**
 * The `rectilinear` chunk grid (zarr-extensions: chunk-grids/rectilinear): per dimension
 * one chunk size or a list of chunk edge lengths. Registries load this module the first
 * time an array uses the grid.
 */
import {
  type ChunkGrid,
  type ChunkGridEntry,
  type DimensionPartition,
  describeJson,
  type ExtensionObject,
  type JsonValue,
  MetadataError,
  ZarrError,
} from "@zarr/spec";
import { checkKeys, GridBase, positiveInt, RegularPartition } from "./grid-parts.js";

/** Chunks of explicit sizes that add up to the array's length. */
class ExplicitPartition implements DimensionPartition {
  readonly count: number;
  /** starts[i] = first index of chunk i; starts[count] = total length. */
  private readonly starts: Float64Array;
  constructor(readonly edges: readonly number[]) {
    this.count = edges.length;
    this.starts = new Float64Array(edges.length + 1);
    for (let i = 0; i < edges.length; i++) this.starts[i + 1] = this.starts[i] + edges[i];
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
 * of chunk edge lengths adding up to the array's length.
 */
export class RectilinearChunkGrid extends GridBase {
  readonly name = "rectilinear";
  constructor(
    readonly shape: readonly number[],
    readonly spec: readonly RectilinearDim[],
  ) {
    super(spec.map((s, d) => (typeof s === "number" ? new RegularPartition(shape[d], s) : new ExplicitPartition(s))));
  }
  resize(shape: readonly number[]): ChunkGrid {
    const next = this.spec.map((s, d) => {
      if (typeof s === "number" || shape[d] === this.shape[d]) return s;
      // Explicit edges can only shrink to an existing chunk boundary: a chunk's shape is
      // part of how it was encoded, so it cannot change without rewriting it.
      let sum = 0;
      const kept: number[] = [];
      for (const e of s) {
        if (sum >= shape[d]) break;
        kept.push(e);
        sum += e;
      }
      if (sum !== shape[d]) {
        throw new ZarrError(
          "UNSUPPORTED",
          `Cannot resize dimension ${d} of a rectilinear grid to ${shape[d]}: explicit chunk edges ${JSON.stringify(s)} have no boundary there (shrink to a chunk boundary, or rewrite the array with new edges)`,
        );
      }
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
      const total = edges.reduce((a, b) => a + b, 0);
      if (total !== shape[d]) {
        throw new MetadataError(dpath, `chunk edge lengths add up to ${total}, but the array's length along dimension ${d} is ${shape[d]}`);
      }
      return edges;
    });
    return new RectilinearChunkGrid(shape, spec);
  },
};
