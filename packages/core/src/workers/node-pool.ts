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

/** The default cap of a worker's young generation (see `WorkerPoolOptions.resourceLimits`). */
const WORKER_YOUNG_GENERATION_MB = 2;

/** Flags that take their value as the next argument, and that workers need to load modules. */
const LOADING_FLAGS_WITH_VALUE = new Set(["--conditions", "-C", "--import", "--require", "-r", "--loader", "--experimental-loader"]);
/** Flags (or `--flag=value` prefixes) passed on to workers: module loading and warnings. */
const PASSED_PREFIXES = ["--conditions=", "-C=", "--import=", "--require=", "--loader=", "--experimental-loader=", "--experimental-", "--no-experimental-", "--enable-source-maps", "--no-warnings", "--no-deprecation"];

/**
 * The parent's Node flags that worker threads need to load modules the way it does
 * (export conditions, loaders and preloads, experimental features) and nothing else:
 * Node refuses V8 and per-process flags in a worker's `execArgv` (`--max-old-space-size`,
 * `--stack-size`; ERR_WORKER_INVALID_EXEC_ARGV), and inheriting them all passes on ones
 * that break a worker (`--input-type`). The development-only "@zarr/source" condition is
 * dropped: workers load compiled JavaScript, never the TypeScript sources it selects.
 */
function workerExecArgv(): string[] {
  const argv = process.execArgv;
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (LOADING_FLAGS_WITH_VALUE.has(a)) {
      const value = argv[++i];
      if (value !== undefined && !((a === "--conditions" || a === "-C") && value === "@zarr/source")) out.push(a, value);
    } else if (a === "--conditions=@zarr/source" || a === "-C=@zarr/source") continue;
    else if (PASSED_PREFIXES.some((p) => a.startsWith(p))) out.push(a);
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
  const resourceLimits = { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB, ...options.resourceLimits };
  // A bundled app's own worker script (`url`), or core's (which loads modules by URL).
  const script = options.url === undefined ? RUNNER_URL : new URL(options.url);
  return new PoolCore(
    size,
    (events) => {
      const worker = new Worker(script, { execArgv: workerExecArgv(), resourceLimits });
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
    options.callerTakesPart === true,
  );
}
