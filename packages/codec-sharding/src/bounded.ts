/** Bounded concurrency over a list, without the scheduling overhead for tiny lists. */
import { mapConcurrent, throwIfAborted } from "@zarr/spec";

/**
 * Runs `worker` over `items` with at most `limit` calls in flight (stopping at the first
 * failure). One item runs directly; never more runners than items are started.
 */
export async function forEachBounded<T>(
  items: readonly T[],
  limit: number,
  worker: (item: T) => Promise<void>,
  signal: AbortSignal | undefined,
): Promise<void> {
  if (items.length === 0) return;
  if (items.length === 1) {
    throwIfAborted(signal);
    await worker(items[0]);
    return;
  }
  await mapConcurrent(items, Math.min(limit, items.length), worker, { signal });
}
