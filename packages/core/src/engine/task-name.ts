/**
 * The name chunk tasks are sent to workers under: a package export (`@zarr/core/engine-task`)
 * rather than a file URL, so that it survives bundling. Node's worker threads know it;
 * a browser app's worker script registers it with `serveWorkerCalls`.
 */
export const ENGINE_TASK_MODULE = "@zarr/core/engine-task";
