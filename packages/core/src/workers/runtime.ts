/**
 * @zarr/core/worker-runtime: the program a pool's worker runs, in Node worker threads and
 * browser module Web Workers alike. It takes calls from the pool (module, export, arguments),
 * loads the module once (a registered name first, else its URL), calls the export, and
 * sends back the result (moving its buffers) or the error.
 *
 * Each call has an `AbortController`; the pool's cancel message aborts it. A call cancelled
 * before its export starts answers `ABORTED` without running it. Exports marked with
 * `takesCallContext` (from `@zarr/spec`) get `{ signal }` after their arguments, to stop
 * mid-task; others run to the end. Every call is answered, cancelled or not.
 */
import { throwIfAborted, type WorkerCallContext, wantsCallContext, ZarrError } from "@zarr/spec";
import { ownedBuffers, type PoolMessage, type ResultMessage, type TaskMessage } from "./protocol.js";
import { loadWorkerModule, registerWorkerModules, type WorkerModuleLoader } from "./worker-modules.js";

export type { WorkerModuleLoader } from "./worker-modules.js";

/** Where calls come from and answers go: a Web Worker's global scope, a `MessagePort`. */
export interface WorkerCallPort {
  postMessage(message: unknown, transfer: ArrayBuffer[]): void;
  addEventListener(type: "message", listener: (event: { data: unknown }) => void): void;
  /** Called once the listener is set, when present (a `MessagePort` delivers nothing before). */
  start?(): void;
}

/** Options of {@link serveWorkerCalls}. */
export interface ServeWorkerCallsOptions {
  /**
   * Modules by name, e.g. `{ "@zarr/core/engine-task": () => import("@zarr/core/engine-task") }`.
   * Calls and codec entries naming one of them (`ModuleExport.moduleName`) load it from
   * here; others are imported from their URL.
   */
  modules?: Readonly<Record<string, WorkerModuleLoader>>;
  /** Where calls arrive (default: this Web Worker's global scope). */
  port?: WorkerCallPort;
}

/**
 * Serves a worker pool's calls in this worker. A browser app's worker script calls it once,
 * registering by name the modules that chunk tasks need (the bundler then includes them):
 * `@zarr/core/engine-task` and every codec package whose codecs its arrays use. Node's
 * `createWorkerPool` runs it in its worker threads already. When the pool cancels a call
 * (its caller's signal aborted), an export marked with `takesCallContext` of `@zarr/spec`
 * sees the signal it got after its arguments abort; core's chunk tasks then stop.
 *
 * @example
 * ```ts
 * // worker.js, started by createWorkerPool({ url: new URL("./worker.js", import.meta.url) })
 * import { serveWorkerCalls } from "@zarr/core/worker-runtime";
 * serveWorkerCalls({
 *   modules: {
 *     "@zarr/core/engine-task": () => import("@zarr/core/engine-task"),
 *     "@zarr/codec-zstd": () => import("@zarr/codec-zstd"),
 *   },
 * });
 * ```
 */
export function serveWorkerCalls(options: ServeWorkerCallsOptions = {}): void {
  const port = options.port ?? workerScope();
  if (options.modules !== undefined) registerWorkerModules(options.modules);
  /** The calls of this port still running, by id. */
  const running = new Map<number, AbortController>();
  port.addEventListener("message", (event) => {
    const message = event.data as PoolMessage;
    // A call that has ended is no longer here: its cancel message comes too late and is ignored.
    if ("cancel" in message) running.get(message.cancel)?.abort();
    else void answer(port, message, running);
  });
  port.start?.();
}

function workerScope(): WorkerCallPort {
  const scope = globalThis as { WorkerGlobalScope?: abstract new () => unknown };
  if (typeof scope.WorkerGlobalScope === "function" && globalThis instanceof scope.WorkerGlobalScope) {
    return globalThis as unknown as WorkerCallPort;
  }
  throw new ZarrError("INVALID_ARGUMENT", "serveWorkerCalls runs in a Web Worker; elsewhere pass the `port` calls arrive on");
}

async function answer(port: WorkerCallPort, task: TaskMessage, running: Map<number, AbortController>): Promise<void> {
  let reply: ResultMessage;
  const controller = new AbortController();
  running.set(task.id, controller);
  try {
    const fn = (await loadWorkerModule(task.moduleUrl))[task.exportName];
    if (typeof fn !== "function") throw new Error(`${task.moduleUrl} has no function export "${task.exportName}"`);
    // Cancelled while its module loaded: the export never starts.
    throwIfAborted(controller.signal);
    const context: WorkerCallContext = { signal: controller.signal };
    const args = wantsCallContext(fn) ? [...task.args, context] : task.args;
    const value = await (fn as (...a: unknown[]) => unknown)(...args);
    running.delete(task.id);
    reply = { id: task.id, ok: true, value };
    port.postMessage(reply, ownedBuffers(value));
    return;
  } catch (error) {
    const e = error as { name?: string; message?: string; code?: unknown; key?: unknown; jsonPath?: unknown };
    reply = {
      id: task.id,
      ok: false,
      error: {
        name: String(e?.name ?? "Error"),
        message: String(e?.message ?? error),
        code: typeof e?.code === "string" ? e.code : undefined,
        key: typeof e?.key === "string" ? e.key : undefined,
        jsonPath: typeof e?.jsonPath === "string" ? e.jsonPath : undefined,
        zarr: error instanceof ZarrError,
      },
    };
  }
  running.delete(task.id);
  port.postMessage(reply, []);
}
