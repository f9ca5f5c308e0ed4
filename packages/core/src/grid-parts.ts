/** What chunk grids share: the regular partition of a dimension, the grid base class, configuration checks. */
import {
  type ChunkGrid,
  type ChunkGridResizeOptions,
  type DimensionPartition,
  describeJson,
  type ExtensionObject,
  type JsonObject,
  type JsonPath,
  type JsonValue,
  MetadataError,
} from "@zarr/spec";

/** Equal-size chunks; the last one may overhang the array's edge. */
export class RegularPartition implements DimensionPartition {
  readonly count: number;
  readonly uniformSize: number;
  constructor(
    length: number,
    readonly chunk: number,
  ) {
    this.count = Math.ceil(length / chunk);
    this.uniformSize = chunk;
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

/** What every grid of partitioned dimensions shares. */
export abstract class GridBase implements ChunkGrid {
  abstract readonly name: string;
  readonly gridShape: readonly number[];
  constructor(readonly dims: readonly DimensionPartition[]) {
    this.gridShape = dims.map((d) => d.count);
  }
  chunkShape(coords: readonly number[]): number[] {
    return coords.map((c, d) => this.dims[d].size(c));
  }
  abstract resize(shape: readonly number[], options?: ChunkGridResizeOptions): ChunkGrid;
  abstract toJSON(): ExtensionObject;
}

/** A positive integer at `path`, or a `MetadataError`. */
export function positiveInt(value: JsonValue | undefined, path: JsonPath): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
    throw new MetadataError(path, `expected a positive integer, got ${describeJson(value)}`);
  }
  return value;
}

/** Refuses configuration fields other than `allowed`. */
export function checkKeys(config: JsonObject, allowed: string[], path: JsonPath): void {
  for (const k of Object.keys(config)) {
    if (!allowed.includes(k)) throw new MetadataError([...path, k], `unknown configuration field "${k}"`);
  }
}
