/**
 * A pool of Node.js worker threads for CPU-heavy codec work. Workers start on first use
 * and idle workers do not keep the process alive.
 *
 * Each worker is handed up to {@link CALLS_PER_WORKER} calls at once, so that the next one
 * already waits in its message queue when the current one ends: with one call at a time a
 * worker sat idle for a round trip through the main thread (often busy reading files)
 * after every chunk. Blocking calls still run one after another; asynchronous ones overlap.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { type WorkerPool, ZarrError, type ZarrErrorCode } from "@zarr/spec";
import type { ResultMessage, TaskMessage } from "./protocol.js";

/** Options of {@link createWorkerPool}. */
export interface WorkerPoolOptions {
  /** Worker threads (default: the number of CPUs, at least 1). */
  size?: number;
}

/** Calls handed to one worker before it answers (see the module comment). */
const CALLS_PER_WORKER = 2;

interface Pending {
  message: TaskMessage;
  transfer: readonly ArrayBuffer[];
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

const RUNNER_URL = new URL(import.meta.url.endsWith(".ts") ? "../../dist/workers/runner.js" : "./runner.js", import.meta.url);

/**
 * The parent's Node flags without the development-only "@zarr/source" export condition:
 * workers load compiled JavaScript, never the TypeScript sources that condition selects.
 */
function workerExecArgv(): string[] {
  const out: string[] = [];
  const argv = process.execArgv;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if ((a === "--conditions" || a === "-C") && argv[i + 1] === "@zarr/source") i++;
    else if (a !== "--conditions=@zarr/source" && a !== "-C=@zarr/source") out.push(a);
  }
  return out;
}

class NodeWorkerPool implements WorkerPool {
  readonly size: number;
  /** Every started worker with its calls in progress, by call id. */
  private readonly workers = new Map<Worker, Map<number, Pending>>();
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;

  constructor(size: number) {
    this.size = size;
  }

  run<R>(moduleUrl: string, exportName: string, args: readonly unknown[], transfer: readonly ArrayBuffer[] = []): Promise<R> {
    if (this.closed) return Promise.reject(new ZarrError("ABORTED", "The worker pool is closed"));
    return new Promise<R>((resolve, reject) => {
      this.queue.push({
        message: { id: this.nextId++, moduleUrl, exportName, args },
        transfer,
        resolve: resolve as (v: unknown) => void,
        reject,
      });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const worker = this.leastLoaded();
      if (worker === undefined) return;
      const task = this.queue.shift() as Pending;
      const calls = this.workers.get(worker) as Map<number, Pending>;
      calls.set(task.message.id, task);
      worker.ref();
      worker.postMessage(task.message, task.transfer as ArrayBuffer[]);
    }
  }

  /** The worker with the fewest calls, starting one while all have some; undefined when all are full. */
  private leastLoaded(): Worker | undefined {
    let best: Worker | undefined;
    let load = CALLS_PER_WORKER;
    for (const [worker, calls] of this.workers) {
      if (calls.size < load) {
        best = worker;
        load = calls.size;
      }
    }
    if ((best === undefined || load > 0) && this.workers.size < this.size) return this.spawn();
    return best;
  }

  private spawn(): Worker {
    const worker = new Worker(RUNNER_URL, { execArgv: workerExecArgv() });
    const calls = new Map<number, Pending>();
    this.workers.set(worker, calls);
    worker.on("message", (reply: ResultMessage) => {
      const task = calls.get(reply.id);
      calls.delete(reply.id);
      if (calls.size === 0) worker.unref();
      if (task !== undefined) {
        if (reply.ok) task.resolve(reply.value);
        else {
          const { code, message, key } = reply.error;
          task.reject(new ZarrError((code as ZarrErrorCode | undefined) ?? "CODEC_FAILED", message, { key }));
        }
      }
      this.dispatch();
    });
    worker.on("error", (error) => this.failWorker(worker, error));
    worker.on("exit", (code) => {
      if (!this.closed) this.failWorker(worker, new Error(`worker thread exited with code ${code}`));
    });
    return worker;
  }

  /** A worker died: fail its calls, forget it, keep the pool usable. */
  private failWorker(worker: Worker, error: unknown): void {
    const calls = this.workers.get(worker);
    if (calls === undefined) return;
    this.workers.delete(worker);
    for (const task of calls.values()) {
      task.reject(new ZarrError("CODEC_FAILED", `A worker thread failed: ${(error as Error)?.message ?? error}`, { cause: error }));
    }
    this.dispatch();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0)) task.reject(new ZarrError("ABORTED", "The worker pool was closed"));
    const all = [...this.workers.keys()];
    for (const calls of this.workers.values()) {
      for (const task of calls.values()) task.reject(new ZarrError("ABORTED", "The worker pool was closed"));
    }
    this.workers.clear();
    await Promise.all(all.map((w) => w.terminate()));
  }
}

/**
 * Creates a pool of worker threads for decoding. Pass it to `get`/`set` as `workers`;
 * codecs with CPU-heavy work (zstd, blosc, lz4, bz2, lzma) then decode large chunks in the
 * workers, so several cores work at once. Close it when done (idle workers do not keep the
 * process alive, but they hold memory).
 *
 * @example
 * ```ts
 * import { createWorkerPool } from "@zarr/core/workers";
 * const workers = createWorkerPool({ size: 4 });
 * const data = await get(arr, null, { workers });
 * await workers.close();
 * ```
 */
export function createWorkerPool(options: WorkerPoolOptions = {}): WorkerPool {
  const size = Math.max(1, Math.floor(options.size ?? availableParallelism()));
  return new NodeWorkerPool(size);
}
