/** @zarr/core/workers in browsers: module Web Workers for CPU-heavy codec work. */
export { createWorkerPool, type WebWorkerLike, type WorkerPoolOptions } from "./browser-pool.js";
