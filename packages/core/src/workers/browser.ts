/** @zarr/core/workers in browsers: module Web Workers for CPU-heavy codec work. */
export { createWorkerPool } from "./browser-pool.js";
export { allocateShared } from "../read-out.js";
export type { WebWorkerEvent, WebWorkerLike, WorkerPoolOptions } from "./options.js";
