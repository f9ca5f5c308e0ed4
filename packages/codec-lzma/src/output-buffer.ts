/** A growable byte buffer for decoded output; growth is bounded and failures name the chunk key. */
import { corrupt } from "./errors.js";

/** The largest output a decoder produces (the largest Uint8Array Node allows is 2^32 bytes). */
export const MAX_OUTPUT = 2 ** 32 - 1;

/** Decoded bytes plus spare capacity. Decoders write into `bytes` directly and bump `length`. */
export class OutputBuffer {
  bytes: Uint8Array;
  length = 0;

  /** The most bytes this buffer may ever hold: `MAX_OUTPUT`, or the caller's smaller bound. */
  readonly limit: number;

  constructor(
    initialCapacity: number,
    private readonly key: string,
    limit: number = MAX_OUTPUT,
  ) {
    this.limit = Math.min(limit, MAX_OUTPUT);
    this.bytes = allocate(Math.min(initialCapacity, this.limit), key);
  }

  /**
   * Makes room for `total` bytes (doubling, so appends stay amortised O(1), but never past
   * `limit`); more than `limit` fails before anything is allocated.
   */
  ensure(total: number): void {
    if (total <= this.bytes.length) return;
    if (total > this.limit) throw corrupt(this.key, `decoded size ${total} exceeds the ${this.limit}-byte limit`);
    const grown = allocate(Math.min(this.limit, Math.max(total, this.bytes.length * 2)), this.key);
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
