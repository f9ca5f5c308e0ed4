/**
 * Running a partitioned job: `planParts`, `runPart`, `initJob` and `finalizeJob`. The
 * target store is the only state shared between parts, so any batch scheduler that runs
 * indexed jobs (Kubernetes Indexed Jobs, AWS Batch array jobs, `xargs -P`) can run them.
 */
import { isMetadataKey, isWritable, mapConcurrent, type Store, throwIfAborted, ZarrError } from "@zarr/spec";
import type { PartitionedJob, WorkUnit } from "./job.js";
import { type PartMarker, readMarker, removeMarkers, writeMarker } from "./markers.js";
import { checkPartIndex, jobId, type PartPlan, type Region, splitByRegions, splitUnits } from "./plan.js";
import { SetupCapture } from "./setup-capture.js";
import { holds, writeOnce } from "./write-once.js";

/** How the parts are cut, given alike to `planParts`, `runPart` and `finalizeJob`. */
export interface PlanOptions {
  /**
   * One region per part, in the job's own coordinate space (a pyramid: level-0 pixel rows
   * and columns), instead of `n` equal runs of units: part `i` runs the units whose
   * footprint meets region `i`. Regions that share a chunk are refused (`INVALID_ARGUMENT`
   * naming both regions and the chunk), as are regions that leave a chunk out.
   */
  regions?: readonly Region[];
}

/** The units in the order the plan runs them, and the plan. */
function cut(units: readonly WorkUnit[], n: number, options: PlanOptions): { plan: PartPlan; ordered: readonly WorkUnit[] } {
  if (options.regions === undefined) return { plan: splitUnits(units, n), ordered: units };
  if (options.regions.length !== n) {
    throw new ZarrError("INVALID_ARGUMENT", `${options.regions.length} region${options.regions.length === 1 ? "" : "s"} given for ${n} parts: give one region per part`);
  }
  return splitByRegions(units, options.regions);
}

/** Options of `runPart`. */
export interface RunPartOptions extends PlanOptions {
  /** Skip units whose objects are already written and verified (see each job). Default false. */
  resume?: boolean;
  /** Units in flight at once (default 8). */
  concurrency?: number;
  signal?: AbortSignal;
  /** Called after each unit with the part's counts so far. */
  onProgress?: (progress: { done: number; total: number; bytes: number }) => void;
}

/** What `runPart` did: the marker's counts (`written + skipped === units`) and its key. */
export interface PartResult extends Omit<PartMarker, "kind" | "plan"> {
  /** The key of the marker written. */
  marker: string;
}

/** What `initJob` and `finalizeJob` did. */
export interface SetupResult {
  job: string;
  /** Setup objects (metadata documents...) written now. */
  written: number;
  /** Setup objects that were already there byte for byte. */
  unchanged: number;
}

interface Opened {
  job: string;
  capture: SetupCapture;
  units: readonly WorkUnit[];
}

async function open(job: PartitionedJob, signal: AbortSignal | undefined): Promise<Opened> {
  if (!isWritable(job.target)) throw new ZarrError("STORE_READ_ONLY", `The ${job.kind} job's target store is read-only`);
  throwIfAborted(signal);
  const capture = new SetupCapture(job.target);
  const prepared = await job.prepare(capture, signal);
  capture.seal();
  return { job: jobId({ kind: job.kind, job: job.describe() }), capture, units: prepared.units };
}

/**
 * Plans `job` in `n` parts: each a contiguous run of the job's units (chunk-aligned, and
 * shard-aligned for sharded targets: a unit writes whole objects), no two parts writing
 * the same object (checked: an overlap throws `INVALID_ARGUMENT` naming the key). With
 * `regions`, part `i` is instead the units meeting region `i` (see `PlanOptions`). Every
 * process computes the same plan from the same job; nothing is written.
 *
 * @example
 * ```ts
 * const plan = await planParts(copyJob(source, target), 4);
 * plan.parts.map((p) => p.objects); // [2, 2, 1, 1]
 * ```
 */
export async function planParts(job: PartitionedJob, n: number, options: PlanOptions & { signal?: AbortSignal } = {}): Promise<PartPlan & { job: string }> {
  const opened = await open(job, options.signal);
  return { ...cut(opened.units, n, options).plan, job: opened.job };
}

/**
 * Runs part `i` of `n` of `job`: its units only, then its marker
 * `.zarr-jobs/<job>/part-<i>-of-<n>.json` (conditionally where the store can). Running a
 * part again, after a crash or alongside a retry, writes the same bytes; with `resume` it
 * skips units already written and verified. Metadata is never written here: `initJob`
 * before the parts, or `finalizeJob` after them.
 *
 * @example
 * ```ts
 * const index = Number(process.env.JOB_COMPLETION_INDEX);
 * await runPart(copyJob(source, target), index, 4, { resume: true });
 * ```
 */
export async function runPart(job: PartitionedJob, i: number, n: number, options: RunPartOptions = {}): Promise<PartResult> {
  checkPartIndex(i, n);
  const { signal, resume = false } = options;
  const concurrency = options.concurrency ?? 8;
  if (!Number.isSafeInteger(concurrency) || concurrency < 1) {
    throw new ZarrError("INVALID_ARGUMENT", `runPart option "concurrency" must be a positive integer, got ${String(concurrency)}`);
  }
  const opened = await open(job, signal);
  const { plan, ordered } = cut(opened.units, n, options);
  const { start, end } = plan.parts[i];
  const mine = ordered.slice(start, end);
  const counts = { written: 0, skipped: 0, bytes: 0 };
  let done = 0;
  await mapConcurrent(
    mine,
    concurrency,
    async (unit) => {
      throwIfAborted(signal);
      const outcome = await unit.run({ resume, signal });
      if (outcome.skipped) counts.skipped++;
      else counts.written++;
      counts.bytes += outcome.bytes;
      options.onProgress?.({ done: ++done, total: mine.length, bytes: counts.bytes });
    },
    { signal },
  );
  const marker: PartMarker = { kind: job.kind, job: opened.job, plan: plan.fingerprint, part: i, parts: n, units: mine.length, ...counts };
  const key = await writeMarker(job.target, marker, signal);
  return { job: opened.job, part: i, parts: n, units: mine.length, ...counts, marker: key };
}

/** Setup objects in the order they are written: data-like objects, then metadata, deepest first (the root's last). */
function setupOrder(keys: Iterable<string>): string[] {
  const depth = (k: string) => k.split("/").length;
  return [...keys].sort((a, b) => Number(isMetadataKey(a)) - Number(isMetadataKey(b)) || depth(b) - depth(a) || (a < b ? -1 : a > b ? 1 : 0));
}

async function writeSetup(target: Store, capture: SetupCapture, signal: AbortSignal | undefined): Promise<{ written: number; unchanged: number }> {
  const counts = { written: 0, unchanged: 0 };
  for (const key of setupOrder(capture.captured.keys())) {
    const outcome = await writeOnce(target, key, capture.captured.get(key) as Uint8Array, signal);
    if (outcome === "same") counts.unchanged++;
    else counts.written++;
  }
  return counts;
}

/**
 * Writes `job`'s metadata (and other setup objects) before any part runs, so readers see
 * the arrays while parts fill them. Idempotent: objects already there byte for byte are
 * left alone, and where the store has conditional writes a concurrent `initJob` of a job
 * with other options fails with `STORE_CHANGED` instead of mixing documents.
 *
 * @example
 * ```ts
 * await initJob(copyJob(source, target)); // then runPart(..., i, n) on every machine
 * ```
 */
export async function initJob(job: PartitionedJob, options: { signal?: AbortSignal } = {}): Promise<SetupResult> {
  const opened = await open(job, options.signal);
  return { job: opened.job, ...(await writeSetup(job.target, opened.capture, options.signal)) };
}

/**
 * Finishes a job run in `n` parts: checks that every part left its marker, for the same
 * plan (else `JOB_INCOMPLETE` naming the missing parts, or `STORE_CHANGED` when parts
 * listed different work), writes the metadata as `initJob` does, then removes the
 * markers. Running it again after it succeeded finds no markers and the metadata in
 * place, and succeeds without writing.
 *
 * @example
 * ```ts
 * await finalizeJob(copyJob(source, target), 4);
 * ```
 */
export async function finalizeJob(
  job: PartitionedJob,
  n: number,
  options: PlanOptions & { signal?: AbortSignal } = {},
): Promise<SetupResult & { alreadyFinalized: boolean }> {
  checkPartIndex(0, n);
  const { signal } = options;
  const opened = await open(job, signal);
  const { plan } = cut(opened.units, n, options);
  const markers = await mapConcurrent(
    plan.parts,
    8,
    (p) => readMarker(job.target, opened.job, p.index, n, signal),
    { signal },
  );
  const missing = plan.parts.filter((p) => markers[p.index] === undefined).map((p) => p.index);
  if (missing.length === n && (await setupInPlace(job.target, opened.capture, signal))) {
    return { job: opened.job, written: 0, unchanged: opened.capture.captured.size, alreadyFinalized: true };
  }
  if (missing.length > 0) {
    const shown = missing.length > 20 ? `${missing.slice(0, 20).join(", ")}, ...` : missing.join(", ");
    throw new ZarrError(
      "JOB_INCOMPLETE",
      `Cannot finalize the ${job.kind} job ${opened.job}: ${missing.length} of ${n} parts have not finished (no marker under .zarr-jobs/${opened.job}/ for part${missing.length === 1 ? "" : "s"} ${shown})`,
    );
  }
  for (const marker of markers as PartMarker[]) {
    if (marker.plan !== plan.fingerprint) {
      throw new ZarrError(
        "STORE_CHANGED",
        `Cannot finalize the ${job.kind} job ${opened.job}: part ${marker.part} ran another plan (${marker.plan}, now ${plan.fingerprint}); the source changed during the job: run the parts again`,
      );
    }
  }
  const counts = await writeSetup(job.target, opened.capture, signal);
  await removeMarkers(job.target, opened.job, n, signal);
  return { job: opened.job, ...counts, alreadyFinalized: false };
}

async function setupInPlace(target: Store, capture: SetupCapture, signal: AbortSignal | undefined): Promise<boolean> {
  for (const [key, value] of capture.captured) if (!(await holds(target, key, value, signal))) return false;
  return true;
}
