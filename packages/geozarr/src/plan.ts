/**
 * Planning a pyramid: how many levels, each level's exact shape and transform, and its
 * chunking (and optional sharding). Pure arithmetic, no I/O.
 */
import { ZarrError } from "@zarr/spec";
import { type Affine, scaleAffine } from "./affine.js";

/** One planned level. */
export interface PlannedLevel {
  index: number;
  /** Factor relative to the previous level (1 for the base). */
  factor: number;
  /** Factor relative to the base level (the product of the factors so far). */
  cumulative: number;
  /** `[height, width]`: the previous level's divided by `factor`, rounded up (partial edge blocks are kept). */
  shape: [number, number];
  /** The base transform with its pixel size multiplied by `cumulative` (same origin). */
  transform?: Affine;
  /** `[rows, cols]` of a chunk (the inner chunk when sharded). */
  chunkShape: [number, number];
  /** `[rows, cols]` of a shard, when sharding. */
  shardShape?: [number, number];
}

/** Options of {@link planPyramid}. */
export interface PlanOptions {
  /** `[height, width]` of the base level. */
  shape: readonly [number, number];
  transform?: Affine;
  /** One factor repeated (default 2), or the factor of each level in turn. */
  factors?: number | readonly number[];
  /** Stop before a level whose smaller side would be below this (default 256). */
  minSize?: number;
  /** Spatial chunk shape (default 512 × 512), capped at each level's size. */
  chunkShape?: readonly [number, number];
  /** Spatial shard shape (a multiple of the chunk shape); each level's shard is capped at the level rounded up to whole chunks. */
  shardShape?: readonly [number, number];
  /** Most levels, the base included (default 32). */
  maxLevels?: number;
}

function positiveInt(v: number, what: string): number {
  if (!Number.isSafeInteger(v) || v < 1) throw new ZarrError("INVALID_ARGUMENT", `${what} must be a positive integer, got ${v}`);
  return v;
}

/**
 * Plans the levels of a pyramid. Generation stops when the next level's smaller side
 * would fall below `minSize`, when a factor list is used up, or at `maxLevels`.
 *
 * @example
 * ```ts
 * planPyramid({ shape: [10980, 10980], transform: [10, 0, 6e5, 0, -10, 5.3e6], factors: [2, 3, 2, 3, 2] })
 *   .map((l) => l.shape); // [[10980,10980],[5490,5490],[1830,1830],[915,915],[305,305]]
 * ```
 */
export function planPyramid(options: PlanOptions): PlannedLevel[] {
  const [H, W] = options.shape;
  positiveInt(H, "height");
  positiveInt(W, "width");
  const minSize = options.minSize ?? 256;
  if (!(minSize >= 1)) throw new ZarrError("INVALID_ARGUMENT", `minSize must be ≥ 1, got ${minSize}`);
  const factors = options.factors ?? 2;
  const list = typeof factors === "number" ? undefined : factors;
  for (const f of list ?? [factors as number]) {
    if (!Number.isSafeInteger(f) || f < 2) throw new ZarrError("INVALID_ARGUMENT", `Pyramid factors are integers ≥ 2, got ${f}`);
  }
  const chunk = options.chunkShape ?? [512, 512];
  positiveInt(chunk[0], "chunk rows");
  positiveInt(chunk[1], "chunk columns");
  const shard = options.shardShape;
  if (shard !== undefined && (shard[0] % chunk[0] !== 0 || shard[1] % chunk[1] !== 0)) {
    throw new ZarrError("INVALID_ARGUMENT", `The shard shape [${shard.join(", ")}] must be a multiple of the chunk shape [${chunk.join(", ")}]`);
  }
  const maxLevels = options.maxLevels ?? 32;
  const levels: PlannedLevel[] = [];
  let shape: [number, number] = [H, W];
  let cumulative = 1;
  for (let index = 0; index < maxLevels; index++) {
    let factor = 1;
    if (index > 0) {
      const f = list === undefined ? (factors as number) : list[index - 1];
      if (f === undefined) break;
      const next: [number, number] = [Math.ceil(shape[0] / f), Math.ceil(shape[1] / f)];
      if (Math.min(next[0], next[1]) < minSize) break;
      factor = f;
      shape = next;
      cumulative *= f;
    }
    const chunkShape: [number, number] = [Math.min(chunk[0], shape[0]), Math.min(chunk[1], shape[1])];
    const level: PlannedLevel = { index, factor, cumulative, shape, chunkShape };
    if (options.transform !== undefined) level.transform = scaleAffine(options.transform, cumulative, cumulative);
    if (shard !== undefined) {
      level.shardShape = [
        Math.min(shard[0], Math.ceil(shape[0] / chunkShape[0]) * chunkShape[0]),
        Math.min(shard[1], Math.ceil(shape[1] / chunkShape[1]) * chunkShape[1]),
      ];
      // The inner chunk must divide the shard; with a level smaller than a chunk both equal the level.
      if (level.shardShape[0] % chunkShape[0] !== 0 || level.shardShape[1] % chunkShape[1] !== 0) level.shardShape = [...chunkShape];
    }
    levels.push(level);
  }
  return levels;
}
