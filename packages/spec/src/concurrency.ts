/** Bounded concurrency: run async work over many items with at most N in flight. */
import { throwIfAborted } from "./errors.js";

/**
 * Items a runner of {@link forEachConcurrent} handles before it lets the event loop run
 * (timers, I/O, an abort), so a long stream of work finished without waiting for I/O never
 * starves the rest of the program. One turn per this many items costs next to nothing.
 */
const STEPS_BEFORE_YIELD = 4096;

/**
 * Runs `worker` over `items` with at most `concurrency` calls in flight, stopping at
 * the first failure (remaining items are not started) or when `signal` aborts.
 *
 * @example
 * ```ts
 * await mapConcurrent(keys, 8, async (key) => store.get(key), { signal });
 * ```
 */
export async function mapConcurrent<T, R>(
  items: Iterable<T>,
  concurrency: number,
  worker: (item: T, index: number) => Promise<R>,
  options: { signal?: AbortSignal } = {},
): Promise<R[]> {
  const results: R[] = [];
  await forEachConcurrent(
    items,
    concurrency,
    async (item, i) => {
      results[i] = await worker(item, i);
    },
    options,
  );
  return results;
}

/**
 * {@link mapConcurrent} for work whose results are not kept: items are taken from `items`
 * only as runners become free, and nothing is remembered per item, so an iterable of
 * millions (or an endless one) runs in constant memory. `worker` may finish an item
 * synchronously (return nothing) instead of returning a promise: such items cost no
 * promise and no trip through the microtask queue, and the event loop still gets a turn
 * every few thousand of them, so an abort is seen.
 *
 * @example
 * ```ts
 * await forEachConcurrent(chunkKeys(), 16, (key) => (known.has(key) ? readChunk(key) : undefined), { signal });
 * ```
 */
export async function forEachConcurrent<T>(
  items: Iterable<T>,
  concurrency: number,
  worker: (item: T, index: number) => void | PromiseLike<void>,
  options: { signal?: AbortSignal } = {},
): Promise<void> {
  const iterator = items[Symbol.iterator]();
  let index = 0;
  let failed = false;
  let failure: unknown;
  const next = async (): Promise<void> => {
    try {
      for (let steps = 1; !failed; steps++) {
        throwIfAborted(options.signal);
        const step = iterator.next();
        if (step.done) return;
        const pending = worker(step.value, index++);
        if (pending !== undefined) await pending;
        // Items settled synchronously, or by promises already resolved, never leave the
        // microtask queue: every so often, let timers and I/O run (an abort among them).
        if (steps % STEPS_BEFORE_YIELD === 0) await yieldToEventLoop();
      }
    } catch (error) {
      // The first failure (a worker's, an abort, the iterator's) stops every runner.
      if (!failed) {
        failed = true;
        failure = error;
      }
    }
  };
  const runners: Promise<void>[] = [];
  for (let k = Math.max(1, Math.floor(concurrency) || 1); k > 0; k--) runners.push(next());
  await Promise.all(runners);
  if (failed) throw failure;
}

/** Resolves on a later turn of the event loop (after pending I/O and timers), not just after other microtasks. */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof setImmediate === "function") setImmediate(resolve);
    else setTimeout(resolve, 0);
  });
}
