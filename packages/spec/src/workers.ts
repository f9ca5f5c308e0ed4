/**
 * The worker-pool contract: chunk tasks (read, decode, encode) can run in worker threads
 * so several cores work at once. Pools are created by @zarr/core (`createWorkerPool` from
 * `@zarr/core/workers`) and passed to `get`/`set`; core's executor decides per chunk
 * whether a trip to a worker pays, from what the codec entries declare.
 */

/**
 * An export of an ES module: `moduleUrl` is an absolute URL (see {@link workerModuleUrl}),
 * or a name under which a worker's own script registered the module (bundled apps).
 * `moduleName`, when set, is a package specifier for the same module (e.g.
 * `"@zarr/codec-zstd"`): worker runtimes look it up among the modules their script
 * registered (`serveWorkerCalls` of `@zarr/core/worker-runtime`) before importing
 * `moduleUrl`, which a bundled app does not serve.
 */
export interface ModuleExport {
  moduleUrl: string;
  exportName: string;
  moduleName?: string;
}

/** Options of one {@link WorkerPool.run} call. */
export interface WorkerRunOptions {
  /**
   * Cancels the call. A call still waiting for a worker is dropped and rejects with
   * `ABORTED` at once (an already-aborted signal posts nothing). A call a worker has started
   * is told to stop: the worker aborts the signal it passed the export (see
   * {@link takesCallContext}), and the call rejects with `ABORTED` when the worker answers,
   * not before, since the export may still be writing into memory the caller shares with it.
   */
  signal?: AbortSignal;
}

/** Runs functions of ES modules in worker threads. */
export interface WorkerPool {
  /** Number of worker threads. */
  readonly size: number;
  /**
   * True when the calling thread may run chunk tasks itself while every worker is busy,
   * so a pool of one worker fewer than there are cores still keeps every core working with
   * less memory (on Node, each worker thread costs about 10 MiB). It can be slower: while
   * the calling thread decodes, it does not dispatch or answer the workers. Off unless set:
   * in a browser the calling thread is the one that draws the page.
   */
  readonly callerTakesPart?: boolean;
  /**
   * Calls export `exportName` of the module at `moduleUrl` (an absolute URL, or a name the
   * worker's runtime has the module registered under, e.g. `"@zarr/core/engine-task"`) in a worker
   * with `args` (structured-cloned; buffers in `transfer` are moved, not copied). Resolves
   * with its (awaited) result; a thrown `ZarrError` comes back with its code and message.
   * `options.signal` cancels the call (pools written before it may ignore `options`: their
   * calls then run to the end).
   */
  run<R>(
    moduleUrl: string,
    exportName: string,
    args: readonly unknown[],
    transfer?: readonly ArrayBuffer[],
    options?: WorkerRunOptions,
  ): Promise<R>;
  /** Stops the workers; pending calls reject with `ABORTED`. */
  close(): Promise<void>;
}

/**
 * The URL of a worker module next to the calling module: `workerModuleUrl(import.meta.url,
 * "codec.js")`. When the caller runs from TypeScript sources (tests, development),
 * the compiled module in `dist/` is used, because worker threads load plain JavaScript.
 */
export function workerModuleUrl(callerUrl: string, file: string): string {
  const url = new URL(file, callerUrl);
  if (callerUrl.endsWith(".ts")) url.pathname = url.pathname.replace(/\/src\/(?!.*\/src\/)/, "/dist/");
  return url.href;
}

/** What a worker runtime passes an export that {@link takesCallContext}, after the call's arguments. */
export interface WorkerCallContext {
  /** Aborted when the caller aborts the call (`WorkerPool.run`'s `options.signal`). */
  readonly signal: AbortSignal;
}

/** The property by which a worker runtime knows that an export takes a {@link WorkerCallContext}. */
const TAKES_CONTEXT = "takesCallContext";

/**
 * Marks a worker-module export as taking a {@link WorkerCallContext} as its argument after
 * the call's own (`args.length` of them), and returns it. Worker runtimes pass other
 * exports only their arguments, so a function with optional trailing parameters never gets
 * a context it does not expect. An export that is cancelled should stop soon and throw
 * (`throwIfAborted(context.signal)` between stages, the signal handed on to its reads).
 *
 * @example
 * ```ts
 * export const slowSum = takesCallContext(async (values: number[], context?: WorkerCallContext) => {
 *   let sum = 0;
 *   for (const v of values) {
 *     throwIfAborted(context?.signal);
 *     sum += await expensive(v);
 *   }
 *   return sum;
 * });
 * ```
 */
export function takesCallContext<F extends (...args: never[]) => unknown>(fn: F): F {
  (fn as unknown as Record<string, unknown>)[TAKES_CONTEXT] = true;
  return fn;
}

/** True when `fn` was marked by {@link takesCallContext}. */
export function wantsCallContext(fn: unknown): boolean {
  return typeof fn === "function" && (fn as unknown as Record<string, unknown>)[TAKES_CONTEXT] === true;
}
