/** `copyJob`: `copy` as a partitioned job, one unit per data key. */
import { isMetadataKey, type JsonValue, type Store } from "@zarr/spec";
import { checkCopyStores, copyKey, listKeys, normalisePrefix } from "../copy.js";
import type { PartitionedJob, WorkUnit } from "./job.js";

/** Options of {@link copyJob}. */
export interface CopyJobOptions {
  /** Copy only the keys under this prefix, as `copy`'s `prefix`. */
  prefix?: string;
  /**
   * Names the job, such as the source and destination URLs: part markers of jobs with
   * different names never mix. Every process of one job must pass the same.
   */
  name?: string;
}

/**
 * `copy` from `source` to `destination` as a job for `planParts`, `runPart`, `initJob`
 * and `finalizeJob`. Each data key is a unit (a shard is one key, so parts are
 * shard-aligned); the metadata documents are the setup, written once by `initJob` or
 * `finalizeJob`. `resume` skips keys the destination holds with the source's size: stores
 * write each value atomically, so a key that is there is complete, and the size check
 * catches a different value left by something else.
 *
 * @example
 * ```ts
 * const job = copyJob(new FileSystemStore("in.zarr"), s3, { name: "in.zarr -> s3://b/out.zarr" });
 * await runPart(job, Number(process.env.JOB_COMPLETION_INDEX), 8);
 * ```
 */
export function copyJob(source: Store, destination: Store, options: CopyJobOptions = {}): PartitionedJob {
  checkCopyStores(source, destination);
  const prefix = normalisePrefix(options.prefix ?? "");
  return {
    kind: "copy",
    target: destination,
    describe: (): JsonValue => ({ prefix, name: options.name ?? null }),
    async prepare(store, signal) {
      const keys = await listKeys(source, prefix, signal);
      for (const key of keys.filter(isMetadataKey)) await copyKey(source, store, key, { resume: false, signal });
      const units: WorkUnit[] = keys
        .filter((key) => !isMetadataKey(key))
        .map((key) => ({ keys: [key], run: ({ resume, signal }) => copyKey(source, store, key, { resume, signal }) }));
      return { units };
    },
  };
}
