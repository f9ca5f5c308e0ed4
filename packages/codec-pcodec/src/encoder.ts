/**
 * A simple pcodec encoder: classic mode, no delta encoding, up to 64 bins per page of
 * about equal counts, tANS-coded (see bins-encoder.ts). The result is a valid standalone
 * stream that pcodec itself reads; it compresses short of pcodec's own encoder, which
 * also chooses modes, delta encodings and bins by their cost.
 */
import { ansEncode, batches, chooseBins } from "./bins-encoder.js";
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

function bitLength(x: number): number {
  return x === 0 ? 0 : 32 - Math.clz32(x);
}

function writeChunk(w: PcoBitWriter, latents: Uint32Array | BigUint64Array, type: NumberTypeInfo): void {
  const n = latents.length;
  const { bins, symbols } = chooseBins(latents);
  w.write(type.byte, 8);
  w.write(n - 1, 24);
  // Chunk metadata: classic mode, no delta encoding, then the bins.
  w.write(0, 4);
  w.write(0, 4);
  w.write(bins.ansSizeLog, 4);
  w.write(bins.lowers.length, 15);
  const offsetBitsBits = Math.log2(type.bits) + 1;
  for (let k = 0; k < bins.lowers.length; k++) {
    w.write(bins.weights[k] - 1, bins.ansSizeLog);
    const lower = bins.lowers[k];
    if (typeof lower === "bigint") w.write64(lower, 64);
    else w.write(lower, type.bits);
    w.write(bins.offsetBits[k], offsetBitsBits);
  }
  w.alignToByte();
  // Page metadata: the four lanes' first tANS states (no delta state).
  const code = bins.lowers.length > 1 ? ansEncode(symbols, bins.weights, bins.ansSizeLog) : undefined;
  for (let lane = 0; lane < 4; lane++) w.write(code ? code.initialStates[lane] : 0, bins.ansSizeLog);
  w.alignToByte();
  // Per batch: the bins' tANS bits, then each number's offset within its bin.
  for (const [start, end] of batches(n)) {
    if (code) for (let i = start; i < end; i++) w.write(code.values[i], code.bits[i]);
    if (latents instanceof BigUint64Array) {
      for (let i = start; i < end; i++) {
        const ob = bins.offsetBits[symbols[i]];
        if (ob > 0) w.write64(latents[i] - (bins.lowers[symbols[i]] as bigint), ob);
      }
    } else {
      for (let i = start; i < end; i++) {
        const ob = bins.offsetBits[symbols[i]];
        if (ob > 0) w.write(latents[i] - (bins.lowers[symbols[i]] as number), ob);
      }
    }
  }
  w.alignToByte();
}

/**
 * Encodes numbers of `numberType` as a pcodec standalone stream (classic mode, no delta
 * encoding, tANS-coded bins; see the module comment). `values` is a typed array of the type (binary16
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
