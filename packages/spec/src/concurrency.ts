/** Bounded concurrency: run async work over many items with at most N in flight. */
import { throwIfAborted } from "./errors.js";

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
  const limit = Math.max(1, Math.floor(concurrency) || 1);
  const iterator = items[Symbol.iterator]();
  const results: R[] = [];
  let index = 0;
  let failed = false;
  let failure: unknown;
  const next = async (): Promise<void> => {
    for (;;) {
      if (failed) return;
      throwIfAborted(options.signal);
      const step = iterator.next();
      if (step.done) return;
      const i = index++;
      try {
        results[i] = await worker(step.value, i);
      } catch (error) {
        if (!failed) {
          failed = true;
          failure = error;
        }
        return;
      }
    }
  };
  const runners: Promise<void>[] = [];
  for (let k = 0; k < limit; k++) runners.push(next());
  const settled = await Promise.allSettled(runners);
  if (failed) throw failure;
  for (const s of settled) if (s.status === "rejected") throw s.reason;
  return results;
}
