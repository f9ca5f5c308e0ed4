/**
 * What every worker pool does, whatever its workers are (Node worker threads, Web Workers):
 * queue calls, hand them to the least loaded worker (starting workers up to the pool's
 * size), match answers to calls, fail the calls of a worker that dies, and close.
 *
 * Each worker is handed up to {@link CALLS_PER_WORKER} calls at once, so that the next one
 * already waits in its message queue when the current one ends: with one call at a time a
 * worker sat idle for a round trip through the main thread (often busy reading files)
 * after every chunk. Blocking calls still run one after another; asynchronous ones overlap.
 *
 * A call's signal (`run`'s `options.signal`) drops it from the queue, or, once sent, posts
 * the worker a cancel message; a sent call settles only with the worker's answer, since
 * until then the worker may be writing into the caller's shared result.
 */
import { type WorkerPool, type WorkerRunOptions, ZarrError, type ZarrErrorCode } from "@zarr/spec";
import type { PoolMessage, ResultMessage, TaskMessage } from "./protocol.js";

/** Calls handed to one worker before it answers (see the module comment). */
export const CALLS_PER_WORKER = 2;

/** A started worker, as the pool core drives it. */
export interface PoolWorker {
  post(message: PoolMessage, transfer: ArrayBuffer[]): void;
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
  signal: AbortSignal | undefined;
  /** The worker the call was sent to. */
  worker?: PoolWorker;
  /** Settle the call (and stop listening to its signal). */
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

function aborted(signal: AbortSignal | undefined): ZarrError {
  return new ZarrError("ABORTED", "The operation was aborted", { cause: signal?.reason });
}

/** A {@link WorkerPool} over workers that `start` creates on demand, at most `size`. */
export class PoolCore implements WorkerPool {
  /** Every started worker with its calls in progress, by call id. */
  private readonly workers = new Map<PoolWorker, Map<number, Pending>>();
  /** Calls waiting for a worker, oldest first (a set: an aborted call leaves it at once, wherever it is). */
  private readonly queue = new Set<Pending>();
  /** The unsettled calls of each signal given to `run`, and the one listener on it. */
  private readonly signals = new Map<AbortSignal, { calls: Set<Pending>; onAbort: () => void }>();
  private nextId = 1;
  private closed = false;

  constructor(
    readonly size: number,
    private readonly start: StartWorker,
    /** How the workers are called in error messages ("worker thread", "web worker"). */
    private readonly label = "worker",
    /** See `WorkerPool.callerTakesPart`. */
    readonly callerTakesPart = false,
  ) {}

  run<R>(
    moduleUrl: string,
    exportName: string,
    args: readonly unknown[],
    transfer: readonly ArrayBuffer[] = [],
    options: WorkerRunOptions = {},
  ): Promise<R> {
    if (this.closed) return Promise.reject(new ZarrError("ABORTED", "The worker pool is closed"));
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(aborted(signal));
    return new Promise<R>((resolve, reject) => {
      const task: Pending = {
        message: { id: this.nextId++, moduleUrl, exportName, args },
        transfer,
        signal,
        resolve: resolve as (v: unknown) => void,
        reject,
      };
      if (signal !== undefined) {
        this.watch(signal, task);
        // However the call settles (answer, failed worker, close, abort), it stops watching.
        task.resolve = (value) => {
          this.unwatch(signal, task);
          resolve(value as R);
        };
        task.reject = (error) => {
          this.unwatch(signal, task);
          reject(error);
        };
      }
      this.queue.add(task);
      this.dispatch();
    });
  }

  /**
   * Listens to `signal` for `task`: one listener per signal, whatever the number of its calls
   * (an operation's chunk calls share one signal; Node warns past 10 listeners on one).
   */
  private watch(signal: AbortSignal, task: Pending): void {
    let watched = this.signals.get(signal);
    if (watched === undefined) {
      const calls = new Set<Pending>();
      const onAbort = () => {
        this.signals.delete(signal);
        for (const call of calls) this.cancel(call);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      watched = { calls, onAbort };
      this.signals.set(signal, watched);
    }
    watched.calls.add(task);
  }

  /** `task` settled: the signal's listener goes with its last call. */
  private unwatch(signal: AbortSignal, task: Pending): void {
    const watched = this.signals.get(signal);
    if (watched === undefined || !watched.calls.delete(task) || watched.calls.size > 0) return;
    signal.removeEventListener("abort", watched.onAbort);
    this.signals.delete(signal);
  }

  /** The signal of `task` aborted: drop it if it still waits, else ask its worker to stop it. */
  private cancel(task: Pending): void {
    if (this.queue.delete(task)) {
      task.reject(aborted(task.signal));
      return;
    }
    const { worker, message } = task;
    if (worker === undefined || this.workers.get(worker)?.get(message.id) !== task) return;
    try {
      worker.post({ cancel: message.id }, []);
    } catch {
      // A worker that cannot be told still answers (or fails): the call settles then.
    }
  }

  private dispatch(): void {
    while (this.queue.size > 0 && !this.closed) {
      const worker = this.leastLoaded();
      if (worker === undefined) return;
      const task = this.queue.values().next().value as Pending;
      this.queue.delete(task);
      task.worker = worker;
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
          // Cancelled: whatever the export made of it (stopped, failed, finished), the caller aborted.
          if (task.signal?.aborted) task.reject(aborted(task.signal));
          else if (reply.ok) task.resolve(reply.value);
          else {
            const { name, code, message, key, jsonPath, zarr } = reply.error;
            // Only a ZarrError's code is one of ours; anything else thrown in a worker (a
            // RangeError from a failed allocation, a Node error with its own code) is a failed task.
            // (A worker script built with an older core sends no `zarr`: its name tells.)
            const ours = (zarr ?? name === "ZarrError") && code !== undefined;
            const detail = ours ? message : `${name}: ${message}${code === undefined ? "" : ` (${code})`}`;
            task.reject(new ZarrError(ours ? (code as ZarrErrorCode) : "CODEC_FAILED", detail, { key, jsonPath }));
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
    const queued = [...this.queue];
    this.queue.clear();
    for (const task of queued) task.reject(new ZarrError("ABORTED", "The worker pool was closed"));
    const all = [...this.workers.keys()];
    for (const calls of this.workers.values()) {
      for (const task of calls.values()) task.reject(new ZarrError("ABORTED", "The worker pool was closed"));
    }
    this.workers.clear();
    await Promise.all(all.map((w) => w.terminate()));
  }
}
