/**
 * `pyramidJob`: `buildPyramid` as a partitioned job (see `planParts`, `runPart`, `initJob`
 * and `finalizeJob` of @zarr/store-utils).
 *
 * Every level is reduced from level 0 (the full-resolution source) by its total factor,
 * never from the level above, so no chunk depends on another level's chunks: the whole
 * pyramid is one flat job, all levels at once, with no ordering between parts. A unit is
 * one chunk (one shard when sharded) of one level of one variable, and writes that object
 * only. Units are listed by where they lie (the centre of the level-0 pixels they reduce,
 * row by row), so a contiguous part is a band of the map with every level's chunks over
 * it: the column of all levels that part builds, each from level 0, which keeps every
 * chunk byte for byte what `buildPyramid` writes, and spreads the work evenly (each band
 * reads its share of level 0 once per level). With explicit regions (level-0 pixel rows
 * and columns), a level's chunk whose pixels reach into two regions is refused, naming it.
 */
import { get, slice, type ZarrArray, type ZarrGroup } from "@zarr/core";
import { type JsonObject, type JsonValue, type Store, ZarrError } from "@zarr/spec";
import type { PartitionedJob, WorkUnit } from "@zarr/store-utils";
import type { GeoHierarchy } from "./hierarchy.js";
import { type PyramidOptions, type PyramidTask, preparePyramid } from "./pyramid.js";

/** Options of {@link pyramidJob}: `buildPyramid`'s, without `overwrite` and the progress callback. */
export interface PyramidJobOptions extends Omit<PyramidOptions, "overwrite" | "onProgress" | "signal"> {
  /**
   * Names the job, such as the source and target URLs: part markers of jobs with different
   * names never mix. Every process of one job must pass the same.
   */
  name?: string;
}

/** The chunk's centre in level-0 pixels, to list units band by band. */
function centre(task: PyramidTask): [number, number] {
  const [[r0, r1], [c0, c1]] = task.footprint;
  return [(r0 + r1) / 2, (c0 + c1) / 2];
}

function byPlace(a: PyramidTask, b: PyramidTask): number {
  const [ay, ax] = centre(a);
  const [by, bx] = centre(b);
  return ay - by || ax - bx || a.level - b.level || (a.variable < b.variable ? -1 : a.variable > b.variable ? 1 : 0) || compareCoords(a.coords, b.coords);
}

function compareCoords(a: readonly number[], b: readonly number[]): number {
  for (let d = 0; d < a.length; d++) if (a[d] !== b[d]) return a[d] - b[d];
  return 0;
}

/** The options that change the bytes written, as JSON (functions and stores left out). */
function describeOptions(options: PyramidJobOptions): JsonObject {
  const { name, writer, registry, workers, levelName, codecs, ...rest } = options;
  return {
    ...(JSON.parse(JSON.stringify(rest)) as JsonObject),
    name: name ?? null,
    format: writer?.format ?? 3,
    codecs: codecs === undefined ? null : (JSON.parse(JSON.stringify(codecs)) as JsonValue),
  };
}

/**
 * `buildPyramid(source, target, options)` as a job for `planParts`/`runPart`/`initJob`/
 * `finalizeJob` of @zarr/store-utils: see the module description for how parts are cut.
 * The groups, coordinate arrays, level array documents and consolidated metadata are the
 * setup, written once by `initJob` or `finalizeJob`; each unit writes one chunk (shard).
 * The result is byte for byte what `buildPyramid` writes.
 *
 * A job cannot `overwrite` (deleting the old pyramid is not a part's work: remove it
 * first); a node already at the target path that is not this job's own is refused with
 * `NODE_EXISTS`. With `resume`, a chunk already there that decodes is kept (stores write
 * atomically, so a chunk that is there is whole; recomputing it to compare would cost as
 * much as writing it).
 *
 * @example
 * ```ts
 * const job = pyramidJob(source, s3, { factors: 2, name: "in.zarr -> s3://b/pyramid.zarr" });
 * await runPart(job, Number(process.env.JOB_COMPLETION_INDEX), 16, { resume: true });
 * ```
 */
export function pyramidJob(source: Store | ZarrGroup | ZarrArray | GeoHierarchy, target: Store, options: PyramidJobOptions = {}): PartitionedJob {
  if ((options as PyramidOptions).overwrite === true) {
    throw new ZarrError("INVALID_ARGUMENT", "A pyramid job cannot overwrite: remove the old pyramid first, then run the parts");
  }
  let levels: string[] = [];
  return {
    kind: "pyramid",
    target,
    describe: (): JsonValue => ({ ...describeOptions(options), levels }),
    async prepare(store, signal) {
      const prepared = await preparePyramid(source, store, { ...options, signal }, false);
      await prepared.consolidate();
      levels = prepared.result.levels.map((l) => l.asset);
      // A level 0 already in place lies below the group, whose document the job replaces.
      if (options.sourceIsLevelZero !== true) await refuseOtherNode(store, target, prepared.result.path, signal);
      const units: WorkUnit[] = [...prepared.tasks].sort(byPlace).map((task) => {
        const key = task.array.chunkKey(task.coords);
        return {
          keys: [key],
          footprint: task.footprint,
          label: `"${key}" (level ${prepared.result.levels[task.level].asset}, variable ${task.variable})`,
          run: async ({ resume, signal }) => {
            if (resume && (await decodes(task, signal))) return { skipped: true, bytes: 0 };
            await prepared.run(task, signal);
            return { skipped: false, bytes: 0 };
          },
        };
      });
      return { units };
    },
  };
}

/** True when the task's chunk is in the target and decodes. */
async function decodes(task: PyramidTask, signal: AbortSignal | undefined): Promise<boolean> {
  const { store } = task.array;
  const key = task.array.chunkKey(task.coords);
  const size = store.getSize ? await store.getSize(key, { signal }) : (await store.get(key, { signal }))?.length;
  if (size === undefined) return false;
  try {
    await get(task.array, task.window.map(([start, stop]) => slice(start, stop)), { signal });
    return true;
  } catch (error) {
    if (error instanceof ZarrError && error.code === "ABORTED") throw error;
    return false;
  }
}

/**
 * Refuses a node at the pyramid's path whose document differs from the one the job writes
 * (another pyramid, or other options): the parts would mix their chunks with its.
 */
async function refuseOtherNode(capture: Store, target: Store, path: string, signal: AbortSignal | undefined): Promise<void> {
  const prefix = path === "" ? "" : `${path}/`;
  for (const name of ["zarr.json", ".zattrs", ".zgroup"]) {
    const key = prefix + name;
    const existing = await target.get(key, { signal });
    if (existing === undefined) continue;
    const ours = await capture.get(key, { signal });
    if (ours === undefined || ours.length !== existing.length || ours.some((b, i) => b !== existing[i])) {
      throw new ZarrError("NODE_EXISTS", `Another node already exists at "${path || "/"}" of the target ("${key}" differs from this job's): remove it first`, { key });
    }
  }
}
