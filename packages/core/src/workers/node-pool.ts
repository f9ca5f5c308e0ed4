/**
 * A pool of Node.js worker threads for CPU-heavy codec work. Workers start on first use
 * and idle workers do not keep the process alive. Queueing and dispatch: `pool-core.ts`.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { WorkerPool } from "@zarr/spec";
import type { WorkerPoolOptions } from "./options.js";
import { PoolCore } from "./pool-core.js";
import type { ResultMessage } from "./protocol.js";

const RUNNER_URL = new URL(import.meta.url.endsWith(".ts") ? "../../dist/workers/runner.js" : "./runner.js", import.meta.url);

/**
 * The parent's Node flags without the development-only "@zarr/source" export condition:
 * workers load compiled JavaScript, never the TypeScript sources that condition selects.
 */
function workerExecArgv(): string[] {
  const out: string[] = [];
  const argv = process.execArgv;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if ((a === "--conditions" || a === "-C") && argv[i + 1] === "@zarr/source") i++;
    else if (a !== "--conditions=@zarr/source" && a !== "-C=@zarr/source") out.push(a);
  }
  return out;
}

/**
 * Creates a pool of worker threads for decoding. Pass it to `get`/`set` as `workers`;
 * codecs with CPU-heavy work (zstd, blosc, lz4, bz2, lzma) then decode large chunks in the
 * workers, so several cores work at once. Close it when done (idle workers do not keep the
 * process alive, but they hold memory). In browsers, `@zarr/core/workers` is a pool of
 * module Web Workers with the same API (see the README).
 *
 * @example
 * ```ts
 * import { createWorkerPool } from "@zarr/core/workers";
 * const workers = createWorkerPool({ size: 4 });
 * const data = await get(arr, null, { workers });
 * await workers.close();
 * ```
 */
export function createWorkerPool(options: WorkerPoolOptions = {}): WorkerPool {
  const size = Math.max(1, Math.floor(options.size ?? availableParallelism()));
  return new PoolCore(
    size,
    (events) => {
      const worker = new Worker(RUNNER_URL, { execArgv: workerExecArgv() });
      let terminating = false;
      worker.on("message", (reply: ResultMessage) => events.reply(reply));
      worker.on("error", (error) => events.fail(error));
      worker.on("exit", (code) => {
        if (!terminating) events.fail(new Error(`worker thread exited with code ${code}`));
      });
      return {
        post: (message, transfer) => worker.postMessage(message, transfer),
        busy: (busy) => (busy ? worker.ref() : worker.unref()),
        terminate: () => {
          terminating = true;
          return worker.terminate();
        },
      };
    },
    "worker thread",
  );
}
