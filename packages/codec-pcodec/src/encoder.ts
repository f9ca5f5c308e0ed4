/**
 * A simple pcodec encoder: classic mode, no delta encoding, one bin per chunk (the
 * chunk's minimum plus a fixed number of offset bits), so no tANS coding is needed. The
 * result is a valid standalone stream that pcodec itself reads; it compresses like
 * frame-of-reference bit packing, well short of what pcodec's own encoder achieves.
 */
import { PcoBitWriter } from "./bit-writer.js";
import { type NumberTypeInfo, numberTypeInfo, type PcoNumberType } from "./number-types.js";
import { MAX_STANDALONE_VERSION, PCO_MAGIC, type PcoValuesByType } from "./standalone.js";

/** The most numbers a standalone chunk holds (its count is 24 bits). */
export const MAX_CHUNK_N = 2 ** 24;

/** Options of {@link pcoCompress}. */
export interface PcoCompressOptions {
  /**
   * The most numbers per chunk (each chunk gets its own bin): the input is cut into equal
   * chunks of at most this many (numcodecs' `equal_pages_up_to`; default 262144).
   */
  equalPagesUpTo?: number;
}

/** Each number's ordered latent (the order-preserving unsigned form pcodec works on). */
function latentsOf(values: PcoValuesByType[PcoNumberType], type: NumberTypeInfo): Uint32Array | BigUint64Array {
  const n = values.length;
  const bytes = new Uint8Array(values.buffer, values.byteOffset, n * (type.bits / 8));
  if (type.bits === 64) {
    const bits = new BigUint64Array(bytes.slice().buffer);
    const sign = 1n << 63n;
    if (type.kind === "int") for (let i = 0; i < n; i++) bits[i] ^= sign;
    if (type.kind === "float") for (let i = 0; i < n; i++) bits[i] = bits[i] & sign ? ~bits[i] : bits[i] ^ sign;
    return bits;
  }
  const raw = type.bits === 32 ? new Uint32Array(bytes.slice().buffer) : type.bits === 16 ? new Uint16Array(bytes.slice().buffer) : bytes;
  const out = new Uint32Array(n);
  const sign = 2 ** (type.bits - 1);
  for (let i = 0; i < n; i++) {
    const b = raw[i];
    out[i] = type.kind === "uint" ? b : type.kind === "int" ? (b ^ sign) & (sign * 2 - 1) : b & sign ? ~b & (sign * 2 - 1) : b ^ sign;
  }
  return out;
}

function bitLength(x: number | bigint): number {
  return typeof x === "bigint" ? x.toString(2).length - (x === 0n ? 1 : 0) : x === 0 ? 0 : 32 - Math.clz32(x);
}

function writeChunk(w: PcoBitWriter, latents: Uint32Array | BigUint64Array, type: NumberTypeInfo): void {
  const n = latents.length;
  w.write(type.byte, 8);
  w.write(n - 1, 24);
  // Chunk metadata: classic mode, no delta, one bin of weight 1 (tANS size log 0).
  w.write(0, 4);
  w.write(0, 4);
  w.write(0, 4);
  w.write(1, 15);
  const offsetBitsBits = Math.log2(type.bits) + 1;
  if (latents instanceof BigUint64Array) {
    let min = latents[0];
    let max = latents[0];
    for (const l of latents) {
      if (l < min) min = l;
      if (l > max) max = l;
    }
    const offsetBits = bitLength(max - min);
    w.write64(min, 64);
    w.write(offsetBits, offsetBitsBits);
    w.alignToByte();
    w.alignToByte(); // page metadata: four 0-bit tANS states
    if (offsetBits > 0) for (const l of latents) w.write64(l - min, offsetBits);
  } else {
    let min = latents[0];
    let max = latents[0];
    for (let i = 1; i < n; i++) {
      const l = latents[i];
      if (l < min) min = l;
      if (l > max) max = l;
    }
    const offsetBits = bitLength(max - min);
    w.write(min, type.bits);
    w.write(offsetBits, offsetBitsBits);
    w.alignToByte();
    w.alignToByte(); // page metadata: four 0-bit tANS states
    if (offsetBits > 0) for (let i = 0; i < n; i++) w.write(latents[i] - min, offsetBits);
  }
  w.alignToByte();
}

/**
 * Encodes numbers of `numberType` as a pcodec standalone stream (classic mode, no delta
 * encoding; see the module comment). `values` is a typed array of the type (binary16
 * bit patterns in a `Uint16Array` for `"f16"`).
 *
 * @example
 * ```ts
 * const bytes = pcoCompress(Int32Array.of(1, 2, 3), "i32");
 * pcoDecompress(bytes).values; // Int32Array [1, 2, 3]
 * ```
 */
export function pcoCompress(values: PcoValuesByType[PcoNumberType], numberType: PcoNumberType, options: PcoCompressOptions = {}): Uint8Array {
  const type = numberTypeInfo(numberType);
  const n = values.length;
  const upTo = Math.min(MAX_CHUNK_N, Math.max(1, options.equalPagesUpTo ?? 262144));
  const latents = latentsOf(values, type);
  const w = new PcoBitWriter(64 + n * (type.bits / 8) + 16 * Math.ceil(n / upTo));
  for (const b of PCO_MAGIC) w.write(b, 8);
  w.write(MAX_STANDALONE_VERSION, 8);
  w.write(type.byte, 8); // uniform number type
  const hintBits = Math.max(1, bitLength(n));
  w.write(hintBits - 1, 6);
  w.write(n, hintBits);
  w.alignToByte();
  w.write(4, 8); // wrapped format 4.0: read by pcodec 0.4.8 and later
  w.write(0, 8);
  const chunks = Math.ceil(n / upTo);
  for (let c = 0; c < chunks; c++) {
    // Equal chunks, as pcodec's equal_pages_up_to cuts them.
    const start = Math.floor((c * n) / chunks);
    const end = Math.floor(((c + 1) * n) / chunks);
    writeChunk(w, latents.subarray(start, end), type);
  }
  w.write(0, 8);
  return w.finish();
}
