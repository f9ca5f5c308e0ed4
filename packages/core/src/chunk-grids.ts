/** The `regular` and `rectilinear` chunk grids. */
import {
  type ChunkGrid,
  type ChunkGridEntry,
  type DimensionPartition,
  describeJson,
  type ExtensionObject,
  type JsonObject,
  type JsonPath,
  type JsonValue,
  MetadataError,
  ZarrError,
} from "@zarr/spec";

/** Equal-size chunks; the last one may overhang the array's edge. */
class RegularPartition implements DimensionPartition {
  readonly count: number;
  constructor(
    length: number,
    readonly chunk: number,
  ) {
    this.count = Math.ceil(length / chunk);
  }
  start(i: number): number {
    return i * this.chunk;
  }
  size(): number {
    return this.chunk;
  }
  chunkOf(index: number): number {
    return Math.floor(index / this.chunk);
  }
}

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

abstract class GridBase implements ChunkGrid {
  abstract readonly name: string;
  readonly gridShape: readonly number[];
  constructor(readonly dims: readonly DimensionPartition[]) {
    this.gridShape = dims.map((d) => d.count);
  }
  chunkShape(coords: readonly number[]): number[] {
    return coords.map((c, d) => this.dims[d].size(c));
  }
  abstract resize(shape: readonly number[]): ChunkGrid;
  abstract toJSON(): ExtensionObject;
}

/** A regular grid: every chunk has `chunkShape`. */
export class RegularChunkGrid extends GridBase {
  readonly name = "regular";
  constructor(
    readonly shape: readonly number[],
    readonly chunkShapeConfig: readonly number[],
  ) {
    super(shape.map((n, d) => new RegularPartition(n, chunkShapeConfig[d])));
  }
  resize(shape: readonly number[]): ChunkGrid {
    return new RegularChunkGrid(shape, this.chunkShapeConfig);
  }
  toJSON(): ExtensionObject {
    return { name: "regular", configuration: { chunk_shape: [...this.chunkShapeConfig] } };
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

function positiveInt(value: JsonValue | undefined, path: JsonPath): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
    throw new MetadataError(path, `expected a positive integer, got ${describeJson(value)}`);
  }
  return value;
}

function checkKeys(config: JsonObject, allowed: string[], path: JsonPath): void {
  for (const k of Object.keys(config)) {
    if (!allowed.includes(k)) throw new MetadataError([...path, k], `unknown configuration field "${k}"`);
  }
}

/** The `regular` grid entry. */
export const regularChunkGrid: ChunkGridEntry = {
  type: "chunk_grid",
  name: "regular",
  fromConfig(configuration, shape, path) {
    const cpath = [...path, "configuration"];
    checkKeys(configuration, ["chunk_shape"], cpath);
    const cs = configuration.chunk_shape;
    if (!Array.isArray(cs)) {
      throw new MetadataError([...cpath, "chunk_shape"], `expected an array of positive integers, got ${describeJson(cs)}`);
    }
    if (cs.length !== shape.length) {
      throw new MetadataError(
        [...cpath, "chunk_shape"],
        `expected ${shape.length} chunk sizes (one per dimension of shape ${JSON.stringify(shape)}), got ${cs.length}`,
      );
    }
    const chunkShape = cs.map((v, i) => positiveInt(v, [...cpath, "chunk_shape", i]));
    return new RegularChunkGrid(shape, chunkShape);
  },
};

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

/** Built-in chunk grid entries. */
export const builtinChunkGrids: readonly ChunkGridEntry[] = [regularChunkGrid, rectilinearChunkGrid];

