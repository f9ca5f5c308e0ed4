/**
 * Lossless (reversible-mode) ZFP compression, what zfpy's `compress_numpy` writes when
 * given no tolerance, rate or precision (numcodecs' default `ZFPY()`): a full header, then
 * every block with libzfp 1.0's reversible algorithm — edge blocks padded as libzfp pads
 * them, floats as an exact block-floating-point form when one exists and otherwise as
 * their bits reinterpreted as integers, the reversible lifting transform, and embedded
 * bit-plane coding of exactly the planes in use.
 */
import { BitWriter } from "./bit-writer.js";
import type { ZfpType } from "./header.js";
import { ZFP_TYPES } from "./header.js";
import { PERMUTATIONS } from "./permutations.js";
import { LIFT_LINES } from "./transform.js";

/** The short mode value of the reversible mode. */
const REVERSIBLE_MODE = 2048 + 128;
const NBMASK32 = 0xaaaaaaaa;
const NBMASK64 = 0xaaaaaaaaaaaaaaaan;

/** Values zfpy can compress, in C order. */
export type ZfpValues = Float32Array | Float64Array | Int32Array | BigInt64Array;

/**
 * Compresses `values` (C order, NumPy `shape` of 1 to 4 axes) losslessly into a ZFP stream
 * with a full header, byte for byte what zfpy's `compress_numpy(array)` writes, which
 * `zfpDecompress` and zfpy decode to exactly `values` (NaN payloads and signed zeros
 * included).
 *
 * @example
 * ```ts
 * const stream = zfpCompressReversible(new Float32Array([1, 2, 3, 4, 5]), [5]);
 * ```
 */
export function zfpCompressReversible(values: ZfpValues, shape: readonly number[]): Uint8Array {
  const type = typeOf(values);
  const dims = shape.length;
  const count = shape.reduce((a, b) => a * b, 1);
  if (dims < 1 || dims > 4) throw new RangeError(`ZFP compresses arrays of 1 to 4 dimensions, not ${dims}`);
  if (count !== values.length) throw new RangeError(`${values.length} values do not fill shape [${shape}]`);
  const size = [...shape].reverse();
  const width = 48 / dims;
  for (const n of size) {
    if (n < 1 || n > 2 ** Math.min(width, 32)) throw new RangeError(`ZFP cannot hold an axis of ${n} values in ${dims} dimensions`);
  }
  const out = new BitWriter();
  // Header: magic "zfp", codec version 5, type, dimensionality, sizes − 1, mode.
  out.bits(0x7a, 8);
  out.bits(0x66, 8);
  out.bits(0x70, 8);
  out.bits(5, 8);
  out.bits(ZFP_TYPES.indexOf(type), 2);
  out.bits(dims - 1, 2);
  for (const n of size) writeWide(out, n - 1, width);
  out.bits(REVERSIBLE_MODE, 12);

  const wide = type === "float64" || type === "int64";
  const encoder = wide ? new Block64Encoder(dims, type === "float64") : new Block32Encoder(dims, type === "float32");
  // Blocks are gathered as 32-bit words, so float bits (NaN payloads) pass untouched.
  const words = wide ? 2 : 1;
  const source = new Int32Array(values.buffer, values.byteOffset, values.length * words);
  const block = encoder.words;
  const [nx, ny = 1, nz = 1, nw = 1] = size;
  const strides = [1, nx, nx * ny, nx * ny * nz];
  const extents = [nx, ny, nz, nw];
  const counts = [0, 0, 0, 0];
  const origin = [0, 0, 0, 0];
  for (let w = 0; w < nw; w += 4) {
    for (let z = 0; z < nz; z += 4) {
      for (let y = 0; y < ny; y += 4) {
        for (let x = 0; x < nx; x += 4) {
          origin[0] = x;
          origin[1] = y;
          origin[2] = z;
          origin[3] = w;
          for (let a = 0; a < 4; a++) counts[a] = Math.min(4, extents[a] - origin[a]);
          const at = x + y * strides[1] + z * strides[2] + w * strides[3];
          gather(block, source, words, dims - 1, 0, at, counts, strides);
          encoder.encode(out);
        }
      }
    }
  }
  return out.bytes();
}

function typeOf(values: ZfpValues): ZfpType {
  if (values instanceof Float32Array) return "float32";
  if (values instanceof Float64Array) return "float64";
  if (values instanceof Int32Array) return "int32";
  if (values instanceof BigInt64Array) return "int64";
  throw new TypeError("ZFP compresses Float32Array, Float64Array, Int32Array or BigInt64Array values");
}

function writeWide(out: BitWriter, value: number, n: number): void {
  if (n <= 32) {
    out.bits(value, n);
    return;
  }
  out.bits(value % 2 ** 32, 32);
  out.bits(Math.floor(value / 2 ** 32), n - 32);
}

/**
 * Copies the block whose first value is `source[at]` into `block` (as libzfp's
 * `gather_partial`): along axis `axis` and below, the `counts` values inside the field,
 * each partial line padded as libzfp pads it once the lower axes are complete.
 */
function gather(
  block: Int32Array,
  source: Int32Array,
  words: number,
  axis: number,
  offset: number,
  at: number,
  counts: readonly number[],
  strides: readonly number[],
): void {
  const n = counts[axis];
  const step = 4 ** axis;
  if (axis === 0) {
    for (let i = 0; i < n * words; i++) block[offset * words + i] = source[at * words + i];
  } else {
    for (let i = 0; i < n; i++) gather(block, source, words, axis - 1, offset + i * step, at + i * strides[axis], counts, strides);
  }
  if (n === 4) return;
  // Every line along this axis through the completed lower axes.
  for (let j = 0; j < step; j++) padLine(block, words, offset + j, n, step);
}

/**
 * Pads a line of 4 values that holds `n` < 4 (libzfp's `pad_block`): none → zeros;
 * then each missing value copies its neighbour, the last one the first value.
 */
function padLine(block: Int32Array, words: number, start: number, n: number, stride: number): void {
  const copy = (to: number, from: number) => {
    for (let q = 0; q < words; q++) block[(start + to * stride) * words + q] = block[(start + from * stride) * words + q];
  };
  if (n === 0) for (let q = 0; q < words; q++) block[start * words + q] = 0;
  if (n <= 1) copy(1, 0);
  if (n <= 2) copy(2, 1);
  if (n <= 3) copy(3, 0);
}

/** One bit plane of a block (scratch, reused). */
const plane = new Uint8Array(256);

/** Embedded coding of `size` coefficients' planes `intprec − 1` down to `intprec − prec` (libzfp's `encode_ints`). */
function encodeBitPlanes(out: BitWriter, prec: number, size: number, intprec: number, low: Int32Array, high: Int32Array): void {
  const kmin = intprec - prec;
  let n = 0;
  for (let k = intprec; k-- > kmin; ) {
    const source = k >= 32 ? high : low;
    const shift = k & 31;
    let last = -1;
    for (let i = 0; i < size; i++) {
      const b = (source[i] >>> shift) & 1;
      plane[i] = b;
      if (b) last = i;
    }
    // The first n bits verbatim, 24 at a time.
    for (let i = 0; i < n; ) {
      const count = Math.min(24, n - i);
      let word = 0;
      for (let j = 0; j < count; j++) word |= plane[i + j] << j;
      out.bits(word, count);
      i += count;
    }
    // Group tests, each followed by a unary run to the next one bit.
    while (n < size) {
      if (last < n) {
        out.bit(0);
        break;
      }
      out.bit(1);
      // The run: zeros, then the one (implied when it is the last coefficient).
      const stop = Math.min(last, size - 1);
      let one = n;
      while (one < stop && plane[one] === 0) one++;
      for (let zeros = one - n; zeros > 0; zeros -= 24) out.bits(0, Math.min(24, zeros));
      if (one < size - 1) out.bit(1);
      n = one + 1;
    }
  }
}

/** Encodes blocks of a 32-bit field in reversible mode. */
class Block32Encoder {
  /** The block to encode, as 32-bit words (filled by the caller). */
  readonly words = new Int32Array(256);
  private readonly floats = new Float32Array(this.words.buffer);
  private readonly ints = new Int32Array(256);
  private readonly check = new Float32Array(256);
  private readonly checkBits = new Int32Array(this.check.buffer);
  private readonly coded = new Int32Array(256);
  private readonly size: number;

  constructor(
    private readonly dims: number,
    private readonly isFloat: boolean,
  ) {
    this.size = 4 ** dims;
  }

  encode(out: BitWriter): void {
    const { size, ints, words } = this;
    if (!this.isFloat) {
      ints.set(words.subarray(0, size));
      this.encodeInts(out);
      return;
    }
    const emax = blockExponent32(this.floats, size);
    if (this.exactBlockFloatingPoint(emax)) {
      const e = emax + 127;
      if (e === 0) {
        // Every value is +0.
        out.bit(0);
        return;
      }
      out.bits(1, 2);
      out.bits(e, 8);
    } else {
      // Sign-magnitude float bits as two's complement integers.
      for (let i = 0; i < size; i++) {
        const x = words[i];
        ints[i] = x < 0 ? x ^ 0x7fffffff : x;
      }
      out.bits(3, 2);
    }
    this.encodeInts(out);
  }

  /** Converts to integers relative to 2^emax and says whether converting back gives the same bits. */
  private exactBlockFloatingPoint(emax: number): boolean {
    const { size, ints, floats, check, checkBits, words } = this;
    if (emax === -127) {
      ints.fill(0, 0, size);
      check.fill(0, 0, size);
    } else {
      const scale = Math.fround(2 ** (30 - emax));
      for (let i = 0; i < size; i++) ints[i] = Math.fround(scale * floats[i]) | 0;
      const inverse = Math.fround(2 ** (emax - 30));
      for (let i = 0; i < size; i++) check[i] = Math.fround(ints[i]) * inverse;
    }
    for (let i = 0; i < size; i++) if (checkBits[i] !== words[i]) return false;
    return true;
  }

  private encodeInts(out: BitWriter): void {
    const { size, ints, coded } = this;
    const lines = LIFT_LINES[this.dims - 1];
    // The forward transform: x first (the reverse of the decoder's order).
    for (let a = lines.length - 1; a >= 0; a--) {
      const { starts, stride: s } = lines[a];
      for (let l = 0; l < starts.length; l++) {
        const i = starts[l];
        const x = ints[i];
        let y = ints[i + s];
        let z = ints[i + 2 * s];
        let w = ints[i + 3 * s];
        w = (w - z) | 0;
        z = (z - y) | 0;
        y = (y - x) | 0;
        w = (w - z) | 0;
        z = (z - y) | 0;
        w = (w - z) | 0;
        ints[i + s] = y;
        ints[i + 2 * s] = z;
        ints[i + 3 * s] = w;
      }
    }
    const perm = PERMUTATIONS[this.dims - 1];
    let any = 0;
    for (let i = 0; i < size; i++) {
      const u = (ints[perm[i]] + NBMASK32) ^ NBMASK32;
      coded[i] = u;
      any |= u;
    }
    // Planes below the lowest one bit need not be coded.
    const prec = any === 0 ? 1 : 32 - (31 - Math.clz32(any & -any));
    out.bits(prec - 1, 5);
    encodeBitPlanes(out, prec, size, 32, coded, coded);
  }
}

/** Encodes blocks of a 64-bit field in reversible mode (64-bit integers as BigInts). */
class Block64Encoder {
  /** The block to encode, as 32-bit words (two per value, filled by the caller). */
  readonly words = new Int32Array(512);
  private readonly floats = new Float64Array(this.words.buffer);
  private readonly bits = new BigInt64Array(this.words.buffer);
  private readonly ints = new BigInt64Array(256);
  private readonly check = new Float64Array(256);
  private readonly checkBits = new BigInt64Array(this.check.buffer);
  private readonly low = new Int32Array(256);
  private readonly high = new Int32Array(256);
  private readonly size: number;

  constructor(
    private readonly dims: number,
    private readonly isFloat: boolean,
  ) {
    this.size = 4 ** dims;
  }

  encode(out: BitWriter): void {
    const { size, ints, bits } = this;
    if (!this.isFloat) {
      ints.set(bits.subarray(0, size));
      this.encodeInts(out);
      return;
    }
    const emax = blockExponent64(this.floats, size);
    if (this.exactBlockFloatingPoint(emax)) {
      const e = emax + 1023;
      if (e === 0) {
        out.bit(0);
        return;
      }
      out.bits(1, 2);
      out.bits(e, 11);
    } else {
      for (let i = 0; i < size; i++) {
        const x = bits[i];
        ints[i] = x < 0n ? x ^ 0x7fffffffffffffffn : x;
      }
      out.bits(3, 2);
    }
    this.encodeInts(out);
  }

  private exactBlockFloatingPoint(emax: number): boolean {
    const { size, ints, floats, check, checkBits, bits } = this;
    if (emax === -1023) {
      ints.fill(0n, 0, size);
      check.fill(0, 0, size);
    } else {
      const scale = 2 ** (62 - emax);
      // Values that do not scale to integers (a scale past the double range) cannot round-trip.
      for (let i = 0; i < size; i++) {
        const v = scale * floats[i];
        ints[i] = Number.isFinite(v) ? BigInt(Math.trunc(v)) : 0n;
      }
      const inverse = 2 ** (emax - 62);
      for (let i = 0; i < size; i++) check[i] = Number(ints[i]) * inverse;
    }
    for (let i = 0; i < size; i++) if (checkBits[i] !== bits[i]) return false;
    return true;
  }

  private encodeInts(out: BitWriter): void {
    const { size, ints, low, high } = this;
    const lines = LIFT_LINES[this.dims - 1];
    for (let a = lines.length - 1; a >= 0; a--) {
      const { starts, stride: s } = lines[a];
      for (let l = 0; l < starts.length; l++) {
        const i = starts[l];
        const x = ints[i];
        let y = ints[i + s];
        let z = ints[i + 2 * s];
        let w = ints[i + 3 * s];
        // Only subtractions: wrapping once at the store gives int64's bits.
        w -= z;
        z -= y;
        y -= x;
        w -= z;
        z -= y;
        w -= z;
        ints[i + s] = y;
        ints[i + 2 * s] = z;
        ints[i + 3 * s] = w;
      }
    }
    const perm = PERMUTATIONS[this.dims - 1];
    let anyLow = 0;
    let anyHigh = 0;
    for (let i = 0; i < size; i++) {
      const u = BigInt.asUintN(64, ints[perm[i]] + NBMASK64) ^ NBMASK64;
      low[i] = Number(u & 0xffffffffn) | 0;
      high[i] = Number(u >> 32n) | 0;
      anyLow |= low[i];
      anyHigh |= high[i];
    }
    const prec = anyLow !== 0 ? 64 - (31 - Math.clz32(anyLow & -anyLow)) : anyHigh !== 0 ? 32 - (31 - Math.clz32(anyHigh & -anyHigh)) : 1;
    out.bits(prec - 1, 6);
    encodeBitPlanes(out, prec, size, 64, low, high);
  }
}

/** libzfp's `exponent_block` for float32: frexp's exponent of the largest magnitude (NaNs ignored), at least −126; −127 for zeros. */
function blockExponent32(values: Float32Array, n: number): number {
  let max = 0;
  for (let i = 0; i < n; i++) {
    const f = Math.abs(values[i]);
    if (max < f) max = f;
  }
  return max > 0 ? Math.max(frexpExponent(max), 1 - 127) : -127;
}

/** libzfp's `exponent_block` for float64: at least −1022; −1023 for zeros. */
function blockExponent64(values: Float64Array, n: number): number {
  let max = 0;
  for (let i = 0; i < n; i++) {
    const f = Math.abs(values[i]);
    if (max < f) max = f;
  }
  return max > 0 ? Math.max(frexpExponent(max), 1 - 1023) : -1023;
}

const frexpView = new DataView(new ArrayBuffer(8));

/** The exponent e of frexp(x) = m·2^e with 0.5 ≤ m < 1, for a positive double (0 for infinity, as glibc gives). */
function frexpExponent(x: number): number {
  if (x === Number.POSITIVE_INFINITY) return 0;
  frexpView.setFloat64(0, x);
  const biased = (frexpView.getUint16(0) >>> 4) & 0x7ff;
  // Subnormal doubles: callers clamp to at least −1022 anyway.
  return biased === 0 ? -1022 : biased - 1022;
}
