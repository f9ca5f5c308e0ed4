/**
 * The `regular` chunk grid, and the registry's built-in grid entries: `regular`, and
 * `rectilinear` (rectilinear-grid.ts) as a lazy entry loaded on first use.
 */
import {
  type ChunkGrid,
  type ChunkGridEntry,
  describeJson,
  type ExtensionObject,
  type LazyEntry,
  MetadataError,
} from "@zarr/spec";
import { checkKeys, GridBase, positiveInt, RegularPartition } from "./grid-parts.js";

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

/** The `rectilinear` grid entry, loaded on first use (see rectilinear-grid.ts). */
export const lazyRectilinearChunkGrid: LazyEntry<ChunkGridEntry> = {
  type: "chunk_grid",
  name: "rectilinear",
  package: "@zarr/core",
  lazy: true,
  load: () => import("./rectilinear-grid.js").then((m) => m.rectilinearChunkGrid),
};

/** Built-in chunk grid entries of a registry (`rectilinear` lazy). */
export const builtinChunkGrids: readonly (ChunkGridEntry | LazyEntry<ChunkGridEntry>)[] = [regularChunkGrid, lazyRectilinearChunkGrid];
