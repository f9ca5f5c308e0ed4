/**
 * The worker pool of the commands that read or write chunk data (`get`, `put`): on by
 * default, one thread per available core; `--workers 0` turns it off.
 */
import { availableParallelism } from "node:os";
import type { WorkerPool } from "@zarr/spec";
import { integerOption } from "./usage.js";

/** The most worker threads `--workers` starts. */
export const MAX_WORKERS = 256;

/**
 * The pool size `--workers` asks for: its value (0 = no pool), or by default the number
 * of cores this process may use (`os.availableParallelism()`). Anything else is a usage
 * error naming the option.
 *
 * @example
 * ```ts
 * workerCount("get", undefined); // 8 on an 8-core machine
 * workerCount("get", "0");       // 0: decode on the main thread
 * ```
 */
export function workerCount(command: string, text: string | undefined): number {
  return integerOption(command, "--workers", text, 0, MAX_WORKERS, Math.min(MAX_WORKERS, availableParallelism()));
}

/** True when `error` (or an error it wraps) is Node refusing the process's flags for a worker thread. */
function isInvalidWorkerFlags(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    if ((e as NodeJS.ErrnoException).code === "ERR_WORKER_INVALID_EXEC_ARGV") return true;
  }
  return false;
}

/**
 * Runs `task` with a pool of `size` worker threads (none when `size` is 0) and closes the
 * pool afterwards, whatever happens. The pool is cheap until used: threads start only
 * when the engine hands one a chunk worth it (large, with a codec that is not
 * lightweight), so small reads never start one.
 *
 * When Node refuses to start a worker with this process's flags
 * (`ERR_WORKER_INVALID_EXEC_ARGV`, e.g. `node --max-old-space-size=… zarr.js`), `task`
 * runs again without a pool and `warn` is told once; `task` must therefore be safe to
 * repeat (reads are; writes rewrite the same chunks).
 *
 * @example
 * ```ts
 * const data = await withWorkerPool(4, (workers) => get(array, null, { workers }), io.error);
 * ```
 */
export async function withWorkerPool<T>(
  size: number,
  task: (workers: WorkerPool | undefined) => Promise<T>,
  warn: (line: string) => void,
): Promise<T> {
  if (size <= 0) return task(undefined);
  const { createWorkerPool } = await import("@zarr/all/workers");
  const workers = createWorkerPool({ size });
  try {
    return await task(workers);
  } catch (error) {
    if (!isInvalidWorkerFlags(error)) throw error;
    warn(
      `zarr: worker threads cannot start with this process's Node flags (${(error as Error).message}); continuing on the main thread (pass --workers 0 to skip this)`,
    );
  } finally {
    await workers.close();
  }
  return task(undefined);
}
