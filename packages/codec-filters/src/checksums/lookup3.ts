/**
 * Bob Jenkins' lookup3 `hashlittle` (the HDF5 metadata checksum), reading bytes one at a
 * time so the result does not depend on alignment or the machine's byte order.
 */

const rot = (x: number, k: number): number => (x << k) | (x >>> (32 - k));

/** The lookup3 hash of `data` with seed `initval`, as an unsigned 32-bit integer. */
export function lookup3(data: Uint8Array, initval = 0): number {
  let length = data.length;
  let a = (0xdeadbeef + length + initval) | 0;
  let b = a;
  let c = a;
  if (length === 0) return c >>> 0;
  let k = 0;
  while (length > 12) {
    a = (a + (data[k] | (data[k + 1] << 8) | (data[k + 2] << 16) | (data[k + 3] << 24))) | 0;
    b = (b + (data[k + 4] | (data[k + 5] << 8) | (data[k + 6] << 16) | (data[k + 7] << 24))) | 0;
    c = (c + (data[k + 8] | (data[k + 9] << 8) | (data[k + 10] << 16) | (data[k + 11] << 24))) | 0;
    // mix(a, b, c)
    a = (a - c) | 0;
    a ^= rot(c, 4);
    c = (c + b) | 0;
    b = (b - a) | 0;
    b ^= rot(a, 6);
    a = (a + c) | 0;
    c = (c - b) | 0;
    c ^= rot(b, 8);
    b = (b + a) | 0;
    a = (a - c) | 0;
    a ^= rot(c, 16);
    c = (c + b) | 0;
    b = (b - a) | 0;
    b ^= rot(a, 19);
    a = (a + c) | 0;
    c = (c - b) | 0;
    c ^= rot(b, 4);
    b = (b + a) | 0;
    length -= 12;
    k += 12;
  }
  // the last 1…12 bytes (switch fall-through in the C original)
  if (length >= 12) c = (c + (data[k + 11] << 24)) | 0;
  if (length >= 11) c = (c + (data[k + 10] << 16)) | 0;
  if (length >= 10) c = (c + (data[k + 9] << 8)) | 0;
  if (length >= 9) c = (c + data[k + 8]) | 0;
  if (length >= 8) b = (b + (data[k + 7] << 24)) | 0;
  if (length >= 7) b = (b + (data[k + 6] << 16)) | 0;
  if (length >= 6) b = (b + (data[k + 5] << 8)) | 0;
  if (length >= 5) b = (b + data[k + 4]) | 0;
  if (length >= 4) a = (a + (data[k + 3] << 24)) | 0;
  if (length >= 3) a = (a + (data[k + 2] << 16)) | 0;
  if (length >= 2) a = (a + (data[k + 1] << 8)) | 0;
  a = (a + data[k]) | 0;
  // final(a, b, c)
  c ^= b;
  c = (c - rot(b, 14)) | 0;
  a ^= c;
  a = (a - rot(c, 11)) | 0;
  b ^= a;
  b = (b - rot(a, 25)) | 0;
  c ^= b;
  c = (c - rot(b, 16)) | 0;
  a ^= c;
  a = (a - rot(c, 4)) | 0;
  b ^= a;
  b = (b - rot(a, 14)) | 0;
  c ^= b;
  c = (c - rot(b, 24)) | 0;
  return c >>> 0;
}
