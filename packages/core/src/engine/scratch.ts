/**
 * Reused byte buffers for the hot read path: the decompressed bytes of one chunk, and the
 * encoded bytes read from a store. A fresh multi-megabyte buffer per chunk costs a page
 * fault per 4 KiB touched; taking one from here costs nothing after the first chunks.
 * A buffer is taken for one chunk task and given back when the task no longer needs it,
 * so tasks that overlap (asynchronous decoders, concurrent reads) never share one.
 */

/** Buffers larger than this are not kept: they would pin too much memory. */
const KEEP_MAX_BYTES = 64 << 20;
/** At most this many buffers are kept per thread. */
const KEEP_MAX_COUNT = 8;

const kept: Uint8Array[] = [];

/** A buffer of at least `minBytes` bytes (taken from the kept ones when one fits). */
export function takeScratch(minBytes: number): Uint8Array {
  let best = -1;
  for (let i = 0; i < kept.length; i++) {
    if (kept[i].length >= minBytes && (best < 0 || kept[i].length < kept[best].length)) best = i;
  }
  if (best >= 0) {
    const buffer = kept[best];
    kept[best] = kept[kept.length - 1];
    kept.pop();
    return buffer;
  }
  return new Uint8Array(minBytes);
}

/** Gives a buffer from {@link takeScratch} back (views are given back as their whole buffer). */
export function giveScratch(buffer: Uint8Array): void {
  if (buffer.byteLength > KEEP_MAX_BYTES || !(buffer.buffer instanceof ArrayBuffer)) return;
  const whole = buffer.byteOffset === 0 && buffer.length === buffer.buffer.byteLength ? buffer : new Uint8Array(buffer.buffer);
  if (kept.includes(whole) || kept.some((k) => k.buffer === whole.buffer)) return;
  if (kept.length >= KEEP_MAX_COUNT) {
    // Keep the larger buffers: they serve every smaller request too.
    let smallest = 0;
    for (let i = 1; i < kept.length; i++) if (kept[i].length < kept[smallest].length) smallest = i;
    if (kept[smallest].length >= whole.length) return;
    kept[smallest] = whole;
    return;
  }
  kept.push(whole);
}
