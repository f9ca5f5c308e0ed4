// The worker script of the @zarr bench page's pool (as @zarr/core's README shows it): the
// chunk task and the codec packages the bench arrays use.
import { serveWorkerCalls } from "@zarr/core/worker-runtime";

serveWorkerCalls({
  modules: {
    "@zarr/core/engine-task": () => import("@zarr/core/engine-task"),
    "@zarr/codec-gzip": () => import("@zarr/codec-gzip"),
    "@zarr/codec-zstd": () => import("@zarr/codec-zstd"),
    "@zarr/codec-blosc": () => import("@zarr/codec-blosc"),
  },
});
