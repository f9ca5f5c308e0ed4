/**
 * Merging range reads that arrive together. Map tiles and time sliders read many small
 * ranges of one object (inner chunks of a shard) from separate `get` calls in flight at
 * once; each would be its own request. A batcher collects the ranges asked for before the
 * event loop turns, and reads each run of neighbours (gaps of at most `gap` bytes, at
 * most `maxBytes` in all) with one request; every caller gets its own slice. Suffix
 * ranges of one key (every tile asking for the same shard index) are read once, as the
 * longest of them.
 */
import { throwIfAborted, ZarrError } from "./errors.js";
import type { VersionedBytes } from "./store.js";

/** How a {@link RangeBatcher} merges ranges. */
export interface RangeBatchOptions {
  /** Largest gap between two ranges read (and thrown away) to merge them. Default 64 KiB. */
  gap?: number;
  /** Largest merged read in bytes; a run that would be longer starts a new read. Default 16 MiB. */
  maxBytes?: number;
}

/** Reads a range of `key` (the store's own ranged read). */
export type RangeRead = (
  key: string,
  range: { offset: number; length: number } | { suffixLength: number },
  ifVersion: string | undefined,
  signal: AbortSignal | undefined,
) => Promise<VersionedBytes | undefined>;

/** Default {@link RangeBatchOptions.gap}: 64 KiB, less than one round trip's worth of bytes on most links. */
export const DEFAULT_RANGE_BATCH_GAP = 64 * 1024;
/** Default {@link RangeBatchOptions.maxBytes}: 16 MiB. */
export const DEFAULT_RANGE_BATCH_BYTES = 16 << 20;

interface Waiter {
  /** Bytes `offset`–`end`, or (for a suffix read, `offset` -1) the last `end` bytes. */
  offset: number;
  end: number;
  signal: AbortSignal | undefined;
  resolve: (value: VersionedBytes | undefined) => void;
  reject: (error: unknown) => void;
}

/** The ranges of one key (and one pinned version) asked for in the current turn. */
interface Pending {
  key: string;
  ifVersion: string | undefined;
  waiters: Waiter[];
}

// A macrotask: reads issued from promise chains of different depths in the same turn of the
// event loop still meet (a microtask would flush after the first).
const nextTurn: (run: () => void) => void =
  typeof (globalThis as { setImmediate?: unknown }).setImmediate === "function"
    ? (run) => (globalThis as unknown as { setImmediate(run: () => void): void }).setImmediate(run)
    : (run) => setTimeout(run, 0);

/**
 * Collects range reads for one turn of the event loop and serves them with merged reads.
 *
 * @example
 * ```ts
 * const batcher = new RangeBatcher((key, range, ifVersion, signal) => store.getVersioned(key, range, { ifVersion, signal }));
 * const [a, b] = await Promise.all([batcher.read("c/0", 0, 100), batcher.read("c/0", 120, 100)]); // one request: bytes 0–219
 * ```
 */
export class RangeBatcher {
  readonly #readRange: RangeRead;
  readonly #gap: number;
  readonly #maxBytes: number;
  #pending = new Map<string, Pending>();
  #scheduled = false;

  constructor(readRange: RangeRead, options: RangeBatchOptions = {}) {
    this.#readRange = readRange;
    this.#gap = options.gap ?? DEFAULT_RANGE_BATCH_GAP;
    this.#maxBytes = options.maxBytes ?? DEFAULT_RANGE_BATCH_BYTES;
  }

  /**
   * `length` bytes of `key` from `offset` (fewer where the value ends sooner), read with
   * the other ranges of `key` asked for in this turn; `undefined` when the key is missing.
   * The bytes may be a view of a larger read: treat them as read-only.
   */
  read(key: string, offset: number, length: number, ifVersion?: string, signal?: AbortSignal): Promise<VersionedBytes | undefined> {
    return this.#add(key, offset, offset + length, ifVersion, signal);
  }

  /**
   * The last `length` bytes of `key` (all of it when shorter), read once with the other
   * suffix reads of `key` asked for in this turn (as the longest of them).
   */
  readSuffix(key: string, length: number, ifVersion?: string, signal?: AbortSignal): Promise<VersionedBytes | undefined> {
    return this.#add(key, -1, length, ifVersion, signal);
  }

  #add(key: string, offset: number, end: number, ifVersion: string | undefined, signal: AbortSignal | undefined): Promise<VersionedBytes | undefined> {
    throwIfAborted(signal);
    const id = `${offset < 0 ? "s" : "r"}${ifVersion ?? ""}\u0000${key}`;
    let pending = this.#pending.get(id);
    if (pending === undefined) {
      pending = { key, ifVersion, waiters: [] };
      this.#pending.set(id, pending);
    }
    const waiters = pending.waiters;
    const promise = new Promise<VersionedBytes | undefined>((resolve, reject) => {
      waiters.push({ offset, end, signal, resolve, reject });
    });
    if (!this.#scheduled) {
      this.#scheduled = true;
      nextTurn(() => this.#flush());
    }
    return promise;
  }

  #flush(): void {
    const batch = this.#pending;
    this.#pending = new Map();
    this.#scheduled = false;
    for (const { key, ifVersion, waiters } of batch.values()) {
      if (waiters[0].offset < 0) {
        void this.#readRun(key, ifVersion, waiters, -1, Math.max(...waiters.map((w) => w.end)));
        continue;
      }
      waiters.sort((a, b) => a.offset - b.offset || a.end - b.end);
      let run: Waiter[] = [];
      let start = 0;
      let end = 0;
      for (const w of waiters) {
        if (run.length > 0 && w.offset <= end + this.#gap && Math.max(end, w.end) - start <= this.#maxBytes) {
          run.push(w);
          end = Math.max(end, w.end);
          continue;
        }
        if (run.length > 0) void this.#readRun(key, ifVersion, run, start, end);
        run = [w];
        start = w.offset;
        end = w.end;
      }
      if (run.length > 0) void this.#readRun(key, ifVersion, run, start, end);
    }
  }

  /** One read for `run` (bytes `start`–`end`, or with `start` -1 the last `end` bytes), sliced for each waiter. */
  async #readRun(key: string, ifVersion: string | undefined, run: Waiter[], start: number, end: number): Promise<void> {
    const range = start < 0 ? { suffixLength: end } : { offset: start, length: end - start };
    if (run.length === 1) {
      const [w] = run;
      this.#readRange(key, range, ifVersion, w.signal).then(w.resolve, w.reject);
      return;
    }
    // The merged read is cancelled only when every waiter has given up; a waiter that
    // gives up alone is rejected at once.
    const controller = new AbortController();
    const open = new Set(run);
    const listeners = new Map<Waiter, () => void>();
    const giveUp = (w: Waiter) => {
      if (!open.delete(w)) return;
      w.reject(new ZarrError("ABORTED", "The operation was aborted", { cause: w.signal?.reason }));
      if (open.size === 0) controller.abort(w.signal?.reason);
    };
    for (const w of run) {
      if (w.signal === undefined) continue;
      if (w.signal.aborted) giveUp(w);
      else {
        const listener = () => giveUp(w);
        listeners.set(w, listener);
        w.signal.addEventListener("abort", listener, { once: true });
      }
    }
    try {
      if (open.size === 0) return;
      const got = await this.#readRange(key, range, ifVersion, controller.signal);
      for (const w of open) {
        if (got === undefined) w.resolve(undefined);
        else {
          const length = got.bytes.length;
          const bytes = start < 0 ? got.bytes.subarray(Math.max(0, length - w.end)) : got.bytes.subarray(Math.min(w.offset - start, length), Math.min(w.end - start, length));
          w.resolve({ bytes, version: got.version });
        }
      }
    } catch (error) {
      for (const w of open) w.reject(error);
    } finally {
      open.clear();
      for (const [w, listener] of listeners) w.signal?.removeEventListener("abort", listener);
    }
  }
}
