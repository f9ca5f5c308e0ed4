/** @zarr/all/workers: worker pools for CPU-heavy codec work (Node worker threads, browser module Web Workers); see @zarr/core/workers. */
export { createWorkerPool, type WebWorkerEvent, type WebWorkerLike, type WorkerPoolOptions } from "@zarr/core/workers";
