/**
 * An in-process mutex per key: concurrent holders of one key run one after another, in
 * the order they asked; different keys never wait for each other. What `set` with
 * `lock: true` takes before a store's own lock, so the tasks of one process queue here
 * instead of contending for a lock file, and what a store held in memory locks with.
 */
import { throwIfAborted, ZarrError } from "@zarr/spec";

/** Gives a held key back; calling it again does nothing. */
export type ReleaseKey = () => void;

/**
 * Exclusive access to keys within this process (threads of JavaScript being async tasks
 * here: a worker thread has its own memory and so its own mutexes).
 *
 * @example
 * ```ts
 * const mutex = new KeyMutex();
 * const release = await mutex.acquire("a/c/0");
 * try { await readModifyWrite(); } finally { release(); }
 * ```
 */
export class KeyMutex {
  /** The last holder's "released" promise per key, while anyone holds or waits for it. */
  readonly #tails = new Map<string, Promise<void>>();

  /** Number of keys held or waited for (0 once every holder has released). */
  get size(): number {
    return this.#tails.size;
  }

  /**
   * Resolves once this caller holds `key`. With `signal`, stops waiting when it fires
   * (rejecting with `ABORTED`; the place in the queue is given up without holding it).
   */
  async acquire(key: string, signal?: AbortSignal): Promise<ReleaseKey> {
    throwIfAborted(signal);
    const previous = this.#tails.get(key);
    let open!: () => void;
    const released = new Promise<void>((resolve) => {
      open = resolve;
    });
    // The next caller waits for this one, which waits for the previous one.
    const tail = previous === undefined ? released : previous.then(() => released);
    this.#tails.set(key, tail);
    let done = false;
    const release: ReleaseKey = () => {
      if (done) return;
      done = true;
      open();
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    };
    if (previous === undefined) return release;
    try {
      await waitOrAbort(previous, signal);
    } catch (error) {
      // Our turn still comes after `previous`: pass it straight on.
      previous.then(release, release);
      throw error;
    }
    return release;
  }
}

function waitOrAbort(turn: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return turn;
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(new ZarrError("ABORTED", "The operation was aborted", { cause: signal.reason }));
    signal.addEventListener("abort", onAbort, { once: true });
    turn.then(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    });
  });
}
