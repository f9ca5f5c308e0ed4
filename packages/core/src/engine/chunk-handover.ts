/**
 * Handing a chunk's stored bytes to a pool worker with as little work on the calling
 * thread as the store allows. What the store declares (`Store.returnedBytes`) decides:
 * bytes it says are the caller's own are moved (transferred), bytes on shared memory that
 * it never changes are shared as they are, and all others are copied, into a spare buffer
 * that the worker gives back with its answer, so that a read of many chunks copies into
 * memory already mapped instead of faulting in a fresh buffer per chunk (3–6 ms per MiB on
 * small VMs: more than decoding the chunk).
 */
import type { ReturnedBytes } from "@zarr/spec";
import { ownsBuffer } from "../workers/protocol.js";

/** The chunk's bytes as a worker call carries them. */
export interface HandedOver {
  /** The bytes to put in the call. */
  bytes: Uint8Array;
  /** The buffers the call moves to the worker. */
  transfer: ArrayBuffer[];
  /** True when `bytes` is a copy on a spare buffer, which the worker is asked to give back. */
  spare: boolean;
}

/**
 * How `bytes`, resolved by a store declaring `returned`, go to a worker: moved when they
 * are the caller's own and span their whole buffer (moving more would detach someone
 * else's bytes), shared when on a `SharedArrayBuffer` the store never changes, else
 * copied: onto a buffer of `spares` when given, else onto a fresh one.
 */
export function handOver(bytes: Uint8Array, returned: ReturnedBytes | undefined, spares?: SpareBuffers): HandedOver {
  if (returned !== undefined && typeof SharedArrayBuffer !== "undefined" && bytes.buffer instanceof SharedArrayBuffer) {
    return { bytes, transfer: [], spare: false };
  }
  if (returned === "owned" && ownsBuffer(bytes)) return { bytes, transfer: [bytes.buffer], spare: false };
  if (spares === undefined) {
    const copy = bytes.slice();
    return { bytes: copy, transfer: [copy.buffer], spare: false };
  }
  const buffer = spares.take(bytes.length);
  const copy = new Uint8Array(buffer, 0, bytes.length);
  copy.set(bytes);
  return { bytes: copy, transfer: [buffer], spare: true };
}

/** Spare buffers are made in steps of this, so that chunks a little larger than the last still fit. */
const SPARE_STEP = 64 * 1024;

/**
 * Buffers that carried chunk copies to workers and came back, kept for the next copies:
 * at most `keep` of them (the calls a pool has in flight, plus one), the largest kept.
 */
export class SpareBuffers {
  readonly #free: ArrayBuffer[] = [];

  constructor(private readonly keep: number) {}

  /** The buffers kept now (for tests). */
  get size(): number {
    return this.#free.length;
  }

  /** A buffer of at least `length` bytes: the smallest spare that fits (no longer kept), else a new one. */
  take(length: number): ArrayBuffer {
    let best = -1;
    for (let i = 0; i < this.#free.length; i++) {
      const size = this.#free[i].byteLength;
      if (size >= length && (best < 0 || size < this.#free[best].byteLength)) best = i;
    }
    if (best >= 0) return this.#free.splice(best, 1)[0];
    return new ArrayBuffer(Math.max(SPARE_STEP, Math.ceil(length / SPARE_STEP) * SPARE_STEP));
  }

  /** Keeps `buffer` (back from a worker) for a later `take`; past `keep` buffers the smallest is dropped. */
  give(buffer: ArrayBuffer): void {
    // A buffer a codec moved elsewhere in the worker comes back detached (empty).
    if (buffer.byteLength === 0) return;
    this.#free.push(buffer);
    if (this.#free.length > this.keep) {
      let smallest = 0;
      for (let i = 1; i < this.#free.length; i++) if (this.#free[i].byteLength < this.#free[smallest].byteLength) smallest = i;
      this.#free.splice(smallest, 1);
    }
  }
}
