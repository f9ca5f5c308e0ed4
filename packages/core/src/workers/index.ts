/** @zarr/core/workers: worker threads for CPU-heavy codec work (Node.js). */
export { createWorkerPool, type WorkerPoolOptions } from "./node-pool.js";
