/**
 * Reused byte buffers for the hot paths: the decompressed bytes of one chunk, the encoded
 * bytes read from a store, and the chunk a `set` assembles before encoding it. A fresh
 * multi-megabyte buffer per chunk costs a page fault per 4 KiB touched; taking one from
 * here costs nothing after the first chunks.
 * A buffer is taken for one chunk task and given back when the task no longer needs it,
 * so tasks that overlap (asynchronous decoders, concurrent reads and writes) never share one.
 * Buffers on a `SharedArrayBuffer` (which worker threads can read and write) are kept
 * apart from ordinary ones.
 */

/** Buffers larger than this are not kept: they would pin too much memory. */
const KEEP_MAX_BYTES = 64 << 20;
/** At most this many bytes are kept per kind and thread. */
const KEEP_MAX_TOTAL = 128 << 20;

interface Kept {
  buffers: Uint8Array[];
  bytes: number;
}

const ordinary: Kept = { buffers: [], bytes: 0 };
const shared: Kept = { buffers: [], bytes: 0 };

/**
 * A buffer of at least `minBytes` bytes (taken from the kept ones when one fits); on a
 * `SharedArrayBuffer` when `onShared` is true. Its contents are whatever it last held.
 */
export function takeScratch(minBytes: number, onShared = false): Uint8Array {
  const kept = onShared ? shared : ordinary;
  const list = kept.buffers;
  let best = -1;
  for (let i = 0; i < list.length; i++) {
    if (list[i].length >= minBytes && (best < 0 || list[i].length < list[best].length)) best = i;
  }
  if (best >= 0) {
    const buffer = list[best];
    list[best] = list[list.length - 1];
    list.pop();
    kept.bytes -= buffer.length;
    return buffer;
  }
  return onShared ? new Uint8Array(new SharedArrayBuffer(minBytes)) : new Uint8Array(minBytes);
}

/** Gives a buffer from {@link takeScratch} back (views are given back as their whole buffer). */
export function giveScratch(buffer: Uint8Array): void {
  const whole = new Uint8Array(buffer.buffer);
  if (whole.length > KEEP_MAX_BYTES) return;
  const kept = buffer.buffer instanceof ArrayBuffer ? ordinary : shared;
  const list = kept.buffers;
  if (list.some((k) => k.buffer === whole.buffer)) return;
  // Keep the larger buffers: they serve every smaller request too.
  while (kept.bytes + whole.length > KEEP_MAX_TOTAL && list.length > 0) {
    let smallest = 0;
    for (let i = 1; i < list.length; i++) if (list[i].length < list[smallest].length) smallest = i;
    if (list[smallest].length >= whole.length) return;
    kept.bytes -= list[smallest].length;
    list[smallest] = list[list.length - 1];
    list.pop();
  }
  list.push(whole);
  kept.bytes += whole.length;
}
