/**
 * Byte order and alignment for the `bytes` codec's hot path: turn stored bytes into a
 * typed array (a zero-copy view whenever order and alignment allow) and back.
 */
import { ZarrError } from "@zarr/spec";

import { MACHINE_LITTLE_ENDIAN } from "../up-front.js";

export { MACHINE_LITTLE_ENDIAN };

/** A typed-array constructor that can view an existing buffer. */
export interface ViewConstructor<T> {
  new (buffer: ArrayBuffer, byteOffset: number, length: number): T;
  new (length: number): T;
  readonly BYTES_PER_ELEMENT: number;
}

/**
 * Throws `CODEC_FAILED` unless `bytes` holds exactly `length` elements of `byteSize`
 * bytes each. Checked before any allocation, so a bad length never allocates.
 */
export function checkByteLength(bytes: Uint8Array, length: number, byteSize: number, typeName: string): void {
  if (!Number.isSafeInteger(length) || length < 0) {
    throw new ZarrError("CODEC_FAILED", `Invalid element count ${length} for data type ${typeName}`);
  }
  if (bytes.length !== length * byteSize) {
    throw new ZarrError(
      "CODEC_FAILED",
      `Expected ${length * byteSize} bytes for ${length} elements of data type ${typeName}, got ${bytes.length}`,
    );
  }
}

/** Reverses the byte order of every `unit`-byte group of `buf[byteOffset, byteOffset + byteLength)`. */
export function swapBytesInPlace(buf: ArrayBuffer, byteOffset: number, byteLength: number, unit: number): void {
  if (unit === 2) {
    if (byteOffset % 2 === 0) {
      const a = new Uint16Array(buf, byteOffset, byteLength >>> 1);
      for (let i = 0; i < a.length; i++) {
        const x = a[i];
        a[i] = ((x & 0xff) << 8) | (x >>> 8);
      }
      return;
    }
  } else if (unit === 4) {
    if (byteOffset % 4 === 0) {
      const a = new Uint32Array(buf, byteOffset, byteLength >>> 2);
      for (let i = 0; i < a.length; i++) {
        const x = a[i];
        a[i] = (x << 24) | ((x & 0xff00) << 8) | ((x >>> 8) & 0xff00) | (x >>> 24);
      }
      return;
    }
  } else if (unit === 8) {
    if (byteOffset % 4 === 0) {
      const a = new Uint32Array(buf, byteOffset, byteLength >>> 2);
      for (let i = 0; i < a.length; i += 2) {
        const lo = a[i];
        const hi = a[i + 1];
        a[i] = (hi << 24) | ((hi & 0xff00) << 8) | ((hi >>> 8) & 0xff00) | (hi >>> 24);
        a[i + 1] = (lo << 24) | ((lo & 0xff00) << 8) | ((lo >>> 8) & 0xff00) | (lo >>> 24);
      }
      return;
    }
  } else if (unit <= 1) {
    return;
  }
  // Unaligned or unusual unit: plain byte loop.
  const b = new Uint8Array(buf, byteOffset, byteLength);
  for (let i = 0; i + unit <= byteLength; i += unit) {
    for (let j = 0, k = unit - 1; j < k; j++, k--) {
      const t = b[i + j];
      b[i + j] = b[i + k];
      b[i + k] = t;
    }
  }
}

/** Copies `bytes` into a fresh (hence aligned) buffer, swapping `unit`-byte groups when `swap`. */
export function alignedCopy(bytes: Uint8Array, unit: number, swap: boolean): ArrayBuffer {
  const buf = new ArrayBuffer(bytes.length);
  new Uint8Array(buf).set(bytes);
  if (swap) swapBytesInPlace(buf, 0, bytes.length, unit);
  return buf;
}

/**
 * Decodes `count` values of a typed array type from `bytes` stored in the given byte
 * order: a view of `bytes` when the order is the machine's and `bytes.byteOffset` is
 * aligned, otherwise an aligned copy (byte-swapped when the order differs).
 * `bytes.length` must already have been checked.
 */
export function typedFromBytes<T>(Ctor: ViewConstructor<T>, bytes: Uint8Array, count: number, littleEndian: boolean): T {
  const size = Ctor.BYTES_PER_ELEMENT;
  const swap = size > 1 && littleEndian !== MACHINE_LITTLE_ENDIAN;
  if (!swap && bytes.byteOffset % size === 0) {
    return new Ctor(bytes.buffer as ArrayBuffer, bytes.byteOffset, count);
  }
  return new Ctor(alignedCopy(bytes, size, swap), 0, count);
}

/** The bytes of a typed array in the given byte order: a view when no swap is needed, else a swapped copy. */
export function typedToBytes(data: ArrayBufferView, unit: number, littleEndian: boolean): Uint8Array {
  const view = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (unit <= 1 || littleEndian === MACHINE_LITTLE_ENDIAN) return view;
  const buf = alignedCopy(view, unit, true);
  return new Uint8Array(buf);
}
