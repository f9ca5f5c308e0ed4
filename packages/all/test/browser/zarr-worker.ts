// The worker script of the browser test page, as an app writes it: the modules chunk tasks
// need are registered by name, so the bundler includes them (bundled, their file URLs
// are gone).
import { serveWorkerCalls } from "@zarr/core/worker-runtime";

serveWorkerCalls({
  modules: {
    "@zarr/core/engine-task": () => import("@zarr/core/engine-task"),
    "@zarr/codec-blosc": () => import("@zarr/codec-blosc"),
    "@zarr/codec-zstd": () => import("@zarr/codec-zstd"),
  },
});
