/** @zarr/core/workers: worker threads for CPU-heavy codec work (Node.js; browsers get `browser.ts`). */
export { createWorkerPool, type WorkerPoolOptions } from "./node-pool.js";
