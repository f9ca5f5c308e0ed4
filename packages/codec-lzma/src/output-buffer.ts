/** A growable byte buffer for decoded output; growth is bounded and failures name the chunk key. */
import { corrupt } from "./errors.js";

/** The largest output a decoder produces (the largest Uint8Array Node allows is 2^32 bytes). */
export const MAX_OUTPUT = 2 ** 32 - 1;

/** Decoded bytes plus spare capacity. Decoders write into `bytes` directly and bump `length`. */
export class OutputBuffer {
  bytes: Uint8Array;
  length = 0;

  constructor(
    initialCapacity: number,
    private readonly key: string,
  ) {
    this.bytes = allocate(Math.min(initialCapacity, MAX_OUTPUT), key);
  }

  /** Makes room for `total` bytes (doubling, so appends stay amortised O(1)). */
  ensure(total: number): void {
    if (total <= this.bytes.length) return;
    if (total > MAX_OUTPUT) throw corrupt(this.key, `decoded size ${total} exceeds the ${MAX_OUTPUT}-byte limit`);
    const grown = allocate(Math.min(MAX_OUTPUT, Math.max(total, this.bytes.length * 2)), this.key);
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  /** Appends a copy of `src`. */
  append(src: Uint8Array): void {
    this.ensure(this.length + src.length);
    this.bytes.set(src, this.length);
    this.length += src.length;
  }

  /** The decoded bytes; trimmed to a fresh array only when much of the capacity is unused. */
  result(): Uint8Array {
    if (this.length === this.bytes.length) return this.bytes;
    if (this.bytes.length - this.length > (this.length >>> 3) + 65536) return this.bytes.slice(0, this.length);
    return this.bytes.subarray(0, this.length);
  }
}

function allocate(size: number, key: string): Uint8Array {
  try {
    return new Uint8Array(size);
  } catch (error) {
    throw corrupt(key, `cannot allocate ${size} bytes for the decoded data (${(error as Error).message})`);
  }
}
