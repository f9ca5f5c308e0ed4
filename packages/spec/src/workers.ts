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

/** Runs functions of ES modules in worker threads. */
export interface WorkerPool {
  /** Number of worker threads. */
  readonly size: number;
  /**
   * Calls export `exportName` of the module at `moduleUrl` (an absolute URL, or a name the
   * worker's runtime has the module registered under, e.g. `"@zarr/core/engine-task"`) in a worker
   * with `args` (structured-cloned; buffers in `transfer` are moved, not copied). Resolves
   * with its (awaited) result; a thrown `ZarrError` comes back with its code and message.
   */
  run<R>(moduleUrl: string, exportName: string, args: readonly unknown[], transfer?: readonly ArrayBuffer[]): Promise<R>;
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
