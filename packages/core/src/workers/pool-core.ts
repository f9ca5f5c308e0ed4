/**
 * What every worker pool does, whatever its workers are (Node worker threads, Web Workers):
 * queue calls, hand them to the least loaded worker (starting workers up to the pool's
 * size), match answers to calls, fail the calls of a worker that dies, and close.
 *
 * Each worker is handed up to {@link CALLS_PER_WORKER} calls at once, so that the next one
 * already waits in its message queue when the current one ends: with one call at a time a
 * worker sat idle for a round trip through the main thread (often busy reading files)
 * after every chunk. Blocking calls still run one after another; asynchronous ones overlap.
 */
import { type WorkerPool, ZarrError, type ZarrErrorCode } from "@zarr/spec";
import type { ResultMessage, TaskMessage } from "./protocol.js";

/** Calls handed to one worker before it answers (see the module comment). */
export const CALLS_PER_WORKER = 2;

/** A started worker, as the pool core drives it. */
export interface PoolWorker {
  post(message: TaskMessage, transfer: ArrayBuffer[]): void;
  /** Told when the worker gets its first call (true) and when it has none left (false). */
  busy?(busy: boolean): void;
  terminate(): Promise<unknown>;
}

/** What a worker reports to the pool core. */
export interface PoolWorkerEvents {
  /** An answer to a call. */
  reply(message: ResultMessage): void;
  /** The worker is unusable (it crashed, exited or could not start): its calls fail. */
  fail(error: unknown): void;
}

/** Starts one worker; `events` are how it reports back. */
export type StartWorker = (events: PoolWorkerEvents) => PoolWorker;

interface Pending {
  message: TaskMessage;
  transfer: readonly ArrayBuffer[];
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** A {@link WorkerPool} over workers that `start` creates on demand, at most `size`. */
export class PoolCore implements WorkerPool {
  /** Every started worker with its calls in progress, by call id. */
  private readonly workers = new Map<PoolWorker, Map<number, Pending>>();
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    readonly size: number,
    private readonly start: StartWorker,
    /** How the workers are called in error messages ("worker thread", "web worker"). */
    private readonly label = "worker",
  ) {}

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
    while (this.queue.length > 0 && !this.closed) {
      const worker = this.leastLoaded();
      if (worker === undefined) return;
      const task = this.queue.shift() as Pending;
      const calls = this.workers.get(worker) as Map<number, Pending>;
      calls.set(task.message.id, task);
      if (calls.size === 1) worker.busy?.(true);
      try {
        worker.post(task.message, task.transfer as ArrayBuffer[]);
      } catch (error) {
        // Arguments that cannot be cloned: this call fails, the worker stays.
        calls.delete(task.message.id);
        if (calls.size === 0) worker.busy?.(false);
        task.reject(new ZarrError("INVALID_ARGUMENT", `Cannot send a call of "${task.message.exportName}" to a ${this.label}: ${(error as Error)?.message ?? error}`, { cause: error }));
      }
    }
  }

  /** The worker with the fewest calls, starting one while all have some; undefined when all are full. */
  private leastLoaded(): PoolWorker | undefined {
    let best: PoolWorker | undefined;
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

  private spawn(): PoolWorker {
    const calls = new Map<number, Pending>();
    let worker: PoolWorker | undefined;
    worker = this.start({
      reply: (reply) => {
        if (worker === undefined || !this.workers.has(worker)) return;
        const task = calls.get(reply.id);
        calls.delete(reply.id);
        if (calls.size === 0) worker.busy?.(false);
        if (task !== undefined) {
          if (reply.ok) task.resolve(reply.value);
          else {
            const { name, code, message, key } = reply.error;
            // Only a ZarrError's code is one of ours; anything else thrown in a worker (a
            // RangeError from a failed allocation, a Node error with its own code) is a failed task.
            const zarrCode = name === "ZarrError" && code !== undefined ? (code as ZarrErrorCode) : "CODEC_FAILED";
            const detail = name === "ZarrError" ? message : `${name}: ${message}${code === undefined ? "" : ` (${code})`}`;
            task.reject(new ZarrError(zarrCode, detail, { key }));
          }
        }
        this.dispatch();
      },
      fail: (error) => {
        if (worker !== undefined) this.failWorker(worker, error);
        // Failing while it is being started: once it is known.
        else queueMicrotask(() => this.failWorker(worker as PoolWorker, error));
      },
    });
    this.workers.set(worker, calls);
    return worker;
  }

  /** A worker died: fail its calls, forget it, keep the pool usable. */
  private failWorker(worker: PoolWorker, error: unknown): void {
    const calls = this.workers.get(worker);
    if (calls === undefined) return;
    this.workers.delete(worker);
    worker.terminate().catch(() => {});
    for (const task of calls.values()) {
      task.reject(new ZarrError("CODEC_FAILED", `A ${this.label} failed: ${(error as Error)?.message ?? error}`, { cause: error }));
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
