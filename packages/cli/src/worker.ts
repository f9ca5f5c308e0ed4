/**
 * The program of the worker threads when the `zarr` command runs from its bundle
 * (`dist/bundle/worker.js`, see build/bundle.mjs): core's own worker script would load
 * modules by the file URLs of their packages, which the bundle has moved into its chunks.
 * This one serves the same calls with the modules registered by name, from the bundle.
 */
import { parentPort } from "node:worker_threads";
import { serveWorkerCalls } from "@zarr/core/worker-runtime";
import { PACKAGES } from "./package-loaders.js";

const port = parentPort;
if (port !== null) {
  serveWorkerCalls({
    modules: { "@zarr/core/engine-task": () => import("@zarr/core/engine-task"), ...PACKAGES },
    port: {
      postMessage: (message, transfer) => port.postMessage(message, transfer),
      addEventListener: (_type, listener) => port.on("message", (data: unknown) => listener({ data })),
    },
  });
}
