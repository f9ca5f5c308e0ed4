/**
 * Decoding one zstd frame's blocks into the shared output buffer. The frame was
 * scanned first (frame-scan.ts), so its block headers are known to be well formed and
 * inside the input; what remains to check here is what only decoding reveals.
 */
import { decodeCompressedBlock } from "./block.js";
import { corrupt } from "./corrupt.js";
import type { FrameInfo } from "./frame-scan.js";
import { FrameState } from "./state.js";

/**
 * The output of a decode: one buffer, allocated once when the sizes are known, grown
 * geometrically (up to a bound) when a frame does not declare its size. The whole
 * output is the window: matches read earlier output directly.
 */
export class OutputBuffer {
  bytes: Uint8Array;

  /** A new buffer of `capacity` bytes, or the caller's buffer to decode into. */
  constructor(capacity: number | Uint8Array) {
    this.bytes = typeof capacity === "number" ? new Uint8Array(capacity) : capacity;
  }

  /** Makes room for `needed` bytes: at least doubling, never beyond `bound`. */
  ensure(needed: number, bound: number): Uint8Array {
    const old = this.bytes;
    if (needed <= old.length) return old;
    const grown = new Uint8Array(Math.max(needed, Math.min(bound, old.length * 2)));
    grown.set(old);
    this.bytes = grown;
    return grown;
  }
}

const state = new FrameState();

/**
 * Decodes frame `f` of `src` into `out` from `op` on; the frame's output may not pass
 * `limit`. Returns the output position after the frame.
 */
export function decodeFrame(src: Uint8Array, f: FrameInfo, out: OutputBuffer, op: number, limit: number): number {
  state.reset();
  const frameStart = op;
  const blockMax = f.blockMaximumSize;
  let pos = f.headerEnd;
  for (;;) {
    const header = src[pos] | (src[pos + 1] << 8) | (src[pos + 2] << 16);
    pos += 3;
    const type = (header >> 1) & 3;
    const size = header >>> 3;
    if (type === 2) {
      const blockLimit = Math.min(limit, op + blockMax);
      const bytes = out.ensure(blockLimit, limit);
      op = decodeCompressedBlock(state, src, pos, pos + size, bytes, op, blockLimit, frameStart);
      pos += size;
    } else {
      if (size > limit - op) corrupt("the blocks decode past the frame's size");
      const bytes = out.ensure(op + size, limit);
      if (type === 0) {
        bytes.set(src.subarray(pos, pos + size), op);
        pos += size;
      } else {
        bytes.fill(src[pos], op, op + size);
        pos += 1;
      }
      op += size;
    }
    if ((header & 1) !== 0) break;
  }
  return op;
}
