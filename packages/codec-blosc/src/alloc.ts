/**
 * Output allocation without zero-filling where the platform allows it. A decoded chunk
 * is written completely before it is returned (every block, stream and unshuffle
 * covers its whole range; on any error the buffer is dropped), so the zeroing that
 * `new Uint8Array(n)` does is wasted work: in Node, `Buffer.allocUnsafeSlow` skips it.
 * The result is always a plain `Uint8Array` over its own `ArrayBuffer`.
 */

interface BufferLike {
  allocUnsafeSlow(size: number): Uint8Array;
}

const NodeBuffer = (globalThis as { Buffer?: BufferLike }).Buffer;
/** Below this size zeroing is cheap and the plain constructor is as fast. */
const MIN_UNSAFE = 1 << 16;

/** A `Uint8Array` of `size` bytes whose contents the caller overwrites completely. */
export function allocUninitialized(size: number): Uint8Array {
  if (NodeBuffer === undefined || size < MIN_UNSAFE) return new Uint8Array(size);
  const b = NodeBuffer.allocUnsafeSlow(size);
  return new Uint8Array(b.buffer, b.byteOffset, size);
}
