/**
 * Reused buffers for the range reads of inner chunks (`fetchInnerChunks`). A coalesced
 * read is megabytes; in fresh memory each one costs a page fault per 4 KiB and garbage
 * collector pressure, which made a sharded read take twice the CPU of the same chunks
 * unsharded. A buffer is taken for one read and given back once its inner chunks are
 * decoded, so reads in flight never share one. Kept per thread (module state).
 */

/** Buffers are allocated in multiples of this, so reads of similar sizes reuse one another's. */
const GRAIN = 1 << 20;
/** At most this many bytes are kept; larger buffers are never kept. */
const KEEP_MAX_TOTAL = 64 << 20;

const kept: Uint8Array[] = [];
let keptBytes = 0;

/** A buffer of at least `minBytes` (a kept one when one fits); its contents are whatever it last held. */
export function takeReadBuffer(minBytes: number): Uint8Array {
  let best = -1;
  for (let i = 0; i < kept.length; i++) {
    if (kept[i].length >= minBytes && (best < 0 || kept[i].length < kept[best].length)) best = i;
  }
  if (best < 0) return new Uint8Array(Math.ceil(minBytes / GRAIN) * GRAIN);
  const buffer = kept[best];
  kept[best] = kept[kept.length - 1];
  kept.pop();
  keptBytes -= buffer.length;
  return buffer;
}

/** Gives back a buffer from {@link takeReadBuffer}; dropped when keeping it would exceed the bound. */
export function giveReadBuffer(buffer: Uint8Array): void {
  if (keptBytes + buffer.length > KEEP_MAX_TOTAL || kept.includes(buffer)) return;
  kept.push(buffer);
  keptBytes += buffer.length;
}

/** How many bytes are kept now (for tests). */
export function keptReadBufferBytes(): number {
  return keptBytes;
}
