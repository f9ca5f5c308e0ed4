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

/**
 * Runs `task` with a pool of `size` worker threads (none when `size` is 0) and closes the
 * pool afterwards, whatever happens. The pool is cheap until used: threads start only
 * when the engine hands one a chunk worth it (large, with a codec that is not
 * lightweight), so small reads never start one.
 * Workers get this process's module-loading Node flags only, so per-process ones such as
 * `--max-old-space-size` do not stop them.
 *
 * @example
 * ```ts
 * const data = await withWorkerPool(4, (workers) => get(array, null, { workers }));
 * ```
 */
export async function withWorkerPool<T>(size: number, task: (workers: WorkerPool | undefined) => Promise<T>): Promise<T> {
  if (size <= 0) return task(undefined);
  const { createWorkerPool } = await import("@zarr/core/workers");
  const workers = createWorkerPool({ size, url: bundledWorkerScript() });
  try {
    return await task(workers);
  } finally {
    await workers.close();
  }
}

/**
 * The worker script of the bundle when this module runs from it (`dist/bundle/commands/`), where
 * core's own script could not find the modules it loads by URL; `undefined` otherwise.
 */
function bundledWorkerScript(): URL | undefined {
  return /\/dist\/bundle\/commands\/[^/]+$/.test(import.meta.url) ? new URL("./worker.js", import.meta.url) : undefined;
}
