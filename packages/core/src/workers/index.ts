/** @zarr/core/workers: worker threads for CPU-heavy codec work (Node.js; browsers get `browser.ts`). */
export { createWorkerPool } from "./node-pool.js";
export { allocateShared } from "../read-out.js";
export type { WebWorkerEvent, WebWorkerLike, WorkerPoolOptions } from "./options.js";
