/**
 * A pool of module Web Workers for CPU-heavy codec work in browsers, with the same API as
 * the Node pool. Workers run a script of the app's that calls `serveWorkerCalls` of
 * `@zarr/core/worker-runtime`. Queueing and dispatch: `pool-core.ts`.
 */
import { type WorkerPool, ZarrError } from "@zarr/spec";
import type { WorkerPoolOptions } from "./options.js";
import { PoolCore } from "./pool-core.js";
import type { ResultMessage } from "./protocol.js";

/**
 * Creates a pool of module Web Workers for decoding; pass it to `get`/`set` as `workers`.
 * Each worker runs your worker script (`url` or `createWorker`), which calls
 * `serveWorkerCalls` registering `@zarr/core/engine-task` and the codec packages your arrays
 * use. Workers write into a `SharedArrayBuffer` result, so the page must be cross-origin
 * isolated (`crossOriginIsolated`); without `SharedArrayBuffer` reads run on the main thread.
 *
 * @example
 * ```ts
 * import { createWorkerPool } from "@zarr/core/workers";
 * const workers = createWorkerPool({ size: 4, url: new URL("./zarr-worker.js", import.meta.url) });
 * const data = await get(arr, null, { workers });
 * await workers.close();
 * ```
 */
export function createWorkerPool(options: WorkerPoolOptions = {}): WorkerPool {
  const { url, createWorker } = options;
  if (url === undefined && createWorker === undefined) {
    throw new ZarrError(
      "INVALID_ARGUMENT",
      "createWorkerPool in a browser needs `url` or `createWorker`: a module worker script that calls serveWorkerCalls from @zarr/core/worker-runtime",
    );
  }
  const cores = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency;
  const size = Math.max(1, Math.floor(options.size ?? cores ?? 1));
  let started = 0;
  const start = createWorker ?? (() => new Worker(url as string | URL, { type: "module", name: `zarr-worker-${++started}` }));
  return new PoolCore(
    size,
    (events) => {
      const worker = start();
      worker.addEventListener("message", (event) => events.reply(event.data as ResultMessage));
      worker.addEventListener("messageerror", () => events.fail(new Error("an answer could not be received (messageerror)")));
      worker.addEventListener("error", (event) => {
        const message = event.message;
        events.fail(new Error(message || `it could not be started or crashed (is ${url ?? "its script"} a module worker script calling serveWorkerCalls?)`));
      });
      return {
        post: (message, transfer) => worker.postMessage(message, transfer),
        terminate: async () => worker.terminate(),
      };
    },
    "web worker",
    options.callerTakesPart === true,
  );
}
