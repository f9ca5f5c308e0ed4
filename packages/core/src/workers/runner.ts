/**
 * The program every Node worker thread of `createWorkerPool` runs: the shared worker
 * runtime on the thread's parent port, with core's chunk task registered under its name.
 */
import { parentPort } from "node:worker_threads";
import { ENGINE_TASK_MODULE } from "../engine/task-name.js";
import { serveWorkerCalls } from "./runtime.js";

const port = parentPort;
if (port !== null) {
  serveWorkerCalls({
    modules: { [ENGINE_TASK_MODULE]: () => import("../engine/task-module.js") },
    port: {
      postMessage: (message, transfer) => port.postMessage(message, transfer),
      addEventListener: (_type, listener) => port.on("message", (data: unknown) => listener({ data })),
    },
  });
}
