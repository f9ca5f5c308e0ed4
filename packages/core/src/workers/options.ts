/** The options of `createWorkerPool`, one type for Node worker threads and browser Web Workers. */

/** An event of a Web Worker, as far as the pool reads it (`MessageEvent`, `ErrorEvent`). */
export interface WebWorkerEvent {
  data?: unknown;
  message?: string;
}

/** What a browser pool needs of a Web Worker (a `Worker` has it). */
export interface WebWorkerLike {
  postMessage(message: unknown, transfer: ArrayBuffer[]): void;
  addEventListener(type: "message" | "messageerror" | "error", listener: (event: WebWorkerEvent) => void): void;
  terminate(): void;
}

/**
 * Options of `createWorkerPool`. The same call works in Node and in browsers: `url` and
 * `createWorker` say how a browser starts its workers. Node's worker threads run core's own
 * script unless `url` names another (a bundled app's); Node ignores `createWorker`.
 */
export interface WorkerPoolOptions {
  /** Workers (default: the number of CPUs — `availableParallelism()`, `navigator.hardwareConcurrency` — at least 1). */
  size?: number;
  /**
   * Browsers: the worker script, started as a module worker, e.g.
   * `new URL("./zarr-worker.js", import.meta.url)`; it calls `serveWorkerCalls` of
   * `@zarr/core/worker-runtime`. Node: an absolute `file:` URL of a worker script to run
   * instead of core's, for a bundled app whose chunks have moved the modules core would
   * load by URL; it calls `serveWorkerCalls` with its `parentPort` as `port`, registering
   * `@zarr/core/engine-task` and the codec and store packages by name.
   */
  url?: string | URL;
  /**
   * Browsers: starts one worker, instead of `url`, e.g.
   * `() => new Worker(new URL("./zarr-worker.js", import.meta.url), { type: "module" })`
   * (the form bundlers recognise and bundle the worker script for).
   */
  createWorker?: () => WebWorkerLike;
  /**
   * Let the calling thread run chunk tasks too while every worker is busy (see
   * `WorkerPool.callerTakesPart`): with it, `size` one below the number of cores keeps them
   * all working with one thread less. Default false (a browser's calling thread draws the page).
   */
  callerTakesPart?: boolean;
  /**
   * Node: the worker threads' V8 heap limits (`Worker`'s `resourceLimits`). By default a
   * worker's young generation is capped at 2 MB: chunk tasks allocate their buffers outside
   * the JavaScript heap, and an uncapped young generation grows to ~8 MB per thread. Measured
   * on the 256 MiB zstd benchmark (`zarr get`, two workers): 11 MiB less peak memory at
   * the same speed. Browsers ignore it.
   */
  resourceLimits?: { maxYoungGenerationSizeMb?: number; maxOldGenerationSizeMb?: number; codeRangeSizeMb?: number; stackSizeMb?: number };
}
