/** Shared helpers of the zfpy tests. */

/** The bytes of a typed array (little-endian on every platform Node runs on). */
export function bytesOf(data: ArrayBufferView): Uint8Array {
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

/** Index of the first byte where `a` and `b` differ (a length difference counts), or −1. */
export function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}
