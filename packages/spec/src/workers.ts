/**
 * The worker-pool contract: CPU-heavy codec work (decompression, unshuffling) can run in
 * worker threads so several cores decode at once. Pools are created by @zarr/core
 * (`createWorkerPool` from `@zarr/core/workers`) and passed to `get`/`set`; codecs receive
 * one in their call context and decide per chunk whether offloading pays.
 */

/** Runs functions of ES modules in worker threads. */
export interface WorkerPool {
  /** Number of worker threads. */
  readonly size: number;
  /**
   * Calls export `exportName` of the module at `moduleUrl` (an absolute URL) in a worker
   * with `args` (structured-cloned; buffers in `transfer` are moved, not copied). Resolves
   * with its (awaited) result; a thrown `ZarrError` comes back with its code and message.
   */
  run<R>(moduleUrl: string, exportName: string, args: readonly unknown[], transfer?: readonly ArrayBuffer[]): Promise<R>;
  /** Stops the workers; pending calls reject with `ABORTED`. */
  close(): Promise<void>;
}

/**
 * The URL of a worker module next to the calling module: `workerModuleUrl(import.meta.url,
 * "decode-task.js")`. When the caller runs from TypeScript sources (tests, development),
 * the compiled module in `dist/` is used, because worker threads load plain JavaScript.
 */
export function workerModuleUrl(callerUrl: string, file: string): string {
  const url = new URL(file, callerUrl);
  if (callerUrl.endsWith(".ts")) url.pathname = url.pathname.replace(/\/src\/(?!.*\/src\/)/, "/dist/");
  return url.href;
}

/**
 * The bytes of `view` in a buffer of their own, safe to transfer to a worker (transferring
 * detaches a buffer, and a view's buffer may be shared with a store or another chunk).
 */
export function transferableCopy(view: Uint8Array): Uint8Array {
  return view.slice();
}

/** Inputs smaller than this decode on the calling thread: messaging a worker would cost more. */
export const WORKER_MIN_BYTES = 64 * 1024;

/**
 * Runs `exportName(input, ...args)` of the worker module at `moduleUrl` in `workers` when
 * there is a pool and `input` is large enough to pay for the trip, else `local()` here.
 * The input travels as a private copy (moved, not cloned); the result comes back moved.
 *
 * @example
 * ```ts
 * decode: (bytes, ctx) => offload(ctx.workers, TASKS_URL, "decode", bytes, [ctx.key], () => decodeHere(bytes, ctx.key)),
 * ```
 */
export function offload<R>(
  workers: WorkerPool | undefined,
  moduleUrl: string,
  exportName: string,
  input: Uint8Array,
  args: readonly unknown[],
  local: () => R | Promise<R>,
): R | Promise<R> {
  if (workers === undefined || input.length < WORKER_MIN_BYTES) return local();
  const copy = transferableCopy(input);
  return workers.run<R>(moduleUrl, exportName, [copy, ...args], [copy.buffer as ArrayBuffer]);
}
