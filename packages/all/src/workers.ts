/** @zarr/all/workers: worker threads for CPU-heavy codec work (Node.js); see @zarr/core/workers. */
export { createWorkerPool, type WorkerPoolOptions } from "@zarr/core/workers";
