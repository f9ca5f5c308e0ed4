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

/** Writes bits least significant first, as libzfp does: for crafting headers. */
export class BitWriter {
  private readonly bits: number[] = [];

  /** Appends the low `n` bits of `value` (a BigInt for more than 32). */
  write(value: number | bigint, n: number): this {
    const v = BigInt(value);
    for (let i = 0; i < n; i++) this.bits.push(Number((v >> BigInt(i)) & 1n));
    return this;
  }

  bytes(): Uint8Array {
    const out = new Uint8Array(Math.ceil(this.bits.length / 8));
    this.bits.forEach((b, i) => {
      out[i >> 3] |= b << (i & 7);
    });
    return out;
  }
}

/** The 96-bit header of a stream: type code 0–3 (int32, int64, float32, float64), sizes x first, a 12-bit mode. */
export function zfpHeader(type: number, size: number[], mode: number, version = 5): BitWriter {
  const w = new BitWriter().write(0x7a, 8).write(0x66, 8).write(0x70, 8).write(version, 8);
  w.write(type, 2).write(size.length - 1, 2);
  const width = 48 / size.length;
  for (const n of size) w.write(n - 1, width);
  return w.write(mode, 12);
}
