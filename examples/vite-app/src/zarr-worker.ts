// The worker script of the pool: Vite bundles it (and the modules it imports lazily) as a
// module worker, because main.ts starts it with `new Worker(new URL(...), { type: "module" })`.
// It registers by name what the chunk tasks need: core's engine task and the zstd codec.
import { serveWorkerCalls } from "@zarr/core/worker-runtime";

serveWorkerCalls({
  modules: {
    "@zarr/core/engine-task": () => import("@zarr/core/engine-task"),
    "@zarr/codec-zstd": () => import("@zarr/codec-zstd"),
  },
});
