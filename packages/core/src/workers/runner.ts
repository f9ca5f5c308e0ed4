/**
 * The program every worker thread runs: import the requested module (once), call the
 * requested export, send back the result (moving its buffers) or the error.
 */
import { parentPort } from "node:worker_threads";
import { ownedBuffers, type ResultMessage, type TaskMessage } from "./protocol.js";

type Module = Record<string, unknown>;
const modules = new Map<string, Promise<Module>>();

parentPort?.on("message", async (task: TaskMessage) => {
  let reply: ResultMessage;
  try {
    let loading = modules.get(task.moduleUrl);
    if (loading === undefined) {
      loading = import(task.moduleUrl) as Promise<Module>;
      modules.set(task.moduleUrl, loading);
    }
    const fn = (await loading)[task.exportName];
    if (typeof fn !== "function") throw new Error(`${task.moduleUrl} has no function export "${task.exportName}"`);
    const value = await (fn as (...a: unknown[]) => unknown)(...task.args);
    reply = { id: task.id, ok: true, value };
    parentPort?.postMessage(reply, ownedBuffers(value));
    return;
  } catch (error) {
    const e = error as { name?: string; message?: string; code?: unknown; key?: unknown };
    reply = {
      id: task.id,
      ok: false,
      error: {
        name: String(e?.name ?? "Error"),
        message: String(e?.message ?? error),
        code: typeof e?.code === "string" ? e.code : undefined,
        key: typeof e?.key === "string" ? e.key : undefined,
      },
    };
  }
  parentPort?.postMessage(reply);
});
