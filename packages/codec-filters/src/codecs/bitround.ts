/**
 * Bit rounding: `bitround` (registered) and `numcodecs.bitround`, `{keepbits}`.
 *
 * Floats keep `keepbits` mantissa bits, rounding the rest half to even on the bit
 * pattern exactly as numcodecs does (`b += ((b >> m) & 1) + (1 << (m - 1)) - 1; b &= mask`
 * with wrapping integer arithmetic). The registered `bitround` also rounds complex
 * components as floats, and integers (and datetimes, as int64) from their most significant
 * set bit, with a saturating add, as zarrs does for unsigned ones; signed ones round their
 * magnitude and keep their sign (zarrs rounds their two's-complement pattern, which sends
 * small negative numbers to huge ones). numcodecs refuses integers ("Only float arrays
 * (16-64bit) can be bit-rounded"), and so does `numcodecs.bitround`. Decoding is the
 * identity: the dropped bits are gone.
 */
import {
  type ArrayToArrayCodec,
  type ChunkSpec,
  type CodecCallContext,
  type CodecEntry,
  type DataType,
  type ExtensionObject,
  type NdArray,
  shapeSize,
  type TypedArray,
  ZarrError,
} from "@zarr/spec";
import { contiguous, elementsOf } from "../chunk.js";
import { ConfigReader } from "../config.js";
import { float16BitsFromFloat32Bits, float32BitsFromFloat16Bits } from "../float16.js";

/** Mantissa bits of float16, float32 and float64. */
const MANTISSA_BITS: Record<number, number> = { 2: 10, 4: 23, 8: 52 };

/** Element kinds the rounding distinguishes. */
type Layout = { float: true; componentBytes: 2 | 4 | 8; float16InFloat32: boolean } | { float: false; bytes: 1 | 2 | 4 | 8; signed: boolean };

function layoutOf(dataType: DataType, registered: boolean): Layout | undefined {
  const size = dataType.byteSize;
  switch (dataType.kind) {
    case "float":
      if (size === 2 || size === 4 || size === 8) return { float: true, componentBytes: size, float16InFloat32: size === 2 };
      return undefined;
    case "complex":
      if (!registered) return undefined;
      return size === 8 || size === 16 ? { float: true, componentBytes: (size / 2) as 4 | 8, float16InFloat32: false } : undefined;
    case "int":
    case "uint":
    case "datetime":
    case "timedelta":
      // numpy's datetime64/timedelta64 are signed int64s.
      return size === 1 || size === 2 || size === 4 || size === 8 ? { float: false, bytes: size, signed: dataType.kind !== "uint" } : undefined;
    default:
      return undefined;
  }
}

/** Word views (unsigned) over the same memory as `data`. */
function u32View(data: TypedArray): Uint32Array {
  return new Uint32Array(data.buffer, data.byteOffset, data.byteLength >>> 2);
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Rounds float32 (or 16-bit) patterns in place: `maskbits` low bits dropped, wrapping add. */
function roundWords(words: Uint32Array | Uint16Array, maskbits: number, width: number): void {
  const half = 2 ** (maskbits - 1) - 1;
  const keep = width === 32 ? ~((2 ** maskbits - 1) >>> 0) >>> 0 : 0xffff & ~(2 ** maskbits - 1);
  const modulus = width === 32 ? 4294967296 : 65536;
  for (let i = 0; i < words.length; i++) {
    const b = words[i];
    words[i] = ((b + ((b >>> maskbits) & 1) + half) % modulus) & keep;
  }
}

/** Rounds float64 patterns (as lo/hi 32-bit words) in place; wrapping 64-bit add. */
function roundFloat64(words: Uint32Array, maskbits: number): void {
  const lo0 = LITTLE_ENDIAN ? 0 : 1;
  const hi0 = LITTLE_ENDIAN ? 1 : 0;
  // half = 2^(m-1) - 1 split into 32-bit halves
  const halfLo = maskbits - 1 >= 32 ? 0xffffffff : 2 ** (maskbits - 1) - 1;
  const halfHi = maskbits - 1 >= 32 ? 2 ** (maskbits - 1 - 32) - 1 : 0;
  const loKeep = maskbits >= 32 ? 0 : ~(2 ** maskbits - 1) >>> 0;
  const hiKeep = maskbits > 32 ? ~(2 ** (maskbits - 32) - 1) >>> 0 : 0xffffffff;
  for (let i = 0; i < words.length; i += 2) {
    const lo = words[i + lo0];
    const hi = words[i + hi0];
    const bit = maskbits < 32 ? (lo >>> maskbits) & 1 : (hi >>> (maskbits - 32)) & 1;
    const sumLo = lo + halfLo + bit;
    const carry = sumLo >= 4294967296 ? 1 : 0;
    const newHi = (hi + halfHi + carry) % 4294967296;
    words[i + lo0] = (sumLo % 4294967296) & loKeep;
    words[i + hi0] = newHi & hiKeep;
  }
}

/** Rounds float16 values held in a Float32Array (converting through the 16-bit pattern). */
function roundFloat16InFloat32(data: Float32Array, maskbits: number): void {
  const words = u32View(data);
  const half = new Uint16Array(1);
  for (let i = 0; i < words.length; i++) {
    half[0] = float16BitsFromFloat32Bits(words[i]);
    roundWords(half, maskbits, 16);
    words[i] = float32BitsFromFloat16Bits(half[0]);
  }
}

/**
 * Rounds unsigned integers of `bits` ≤ 32 to `keepbits` bits from their highest set bit,
 * half to even, saturating at `max` (then cut to the kept bits), as zarrs does.
 */
function roundMagnitude(v: number, keepbits: number, max: number): number {
  const used = 32 - Math.clz32(v);
  if (keepbits >= used) return v;
  const m = used - keepbits;
  let sum = v + (Math.floor(v / 2 ** m) & 1) + 2 ** (m - 1) - 1;
  if (sum > max) sum = max;
  return sum - (sum % 2 ** m);
}

/**
 * Rounds integers of `bits` ≤ 32 in place. Unsigned ones round their value from the
 * highest set bit. Signed ones round their magnitude the same way and keep their sign
 * (−7 with keepbits 2 is −8): the spec's "most significant set bit" names a magnitude's
 * bit, and rounding the two's-complement pattern, as zarrs does, turns −7 into
 * −1073741824 in int32.
 */
function roundIntegers(values: Uint8Array | Uint16Array | Uint32Array | Int8Array | Int16Array | Int32Array, bits: number, signed: boolean, keepbits: number): void {
  const max = signed ? 2 ** (bits - 1) - 1 : 2 ** bits - 1;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    // The most negative value's magnitude is one set bit: nothing to round.
    values[i] = v < 0 ? (v === -(2 ** (bits - 1)) ? v : -roundMagnitude(-v, keepbits, max)) : roundMagnitude(v, keepbits, max);
  }
}

/** As {@link roundIntegers} for 64-bit integers. */
function roundIntegers64(values: BigUint64Array | BigInt64Array, signed: boolean, keepbits: number): void {
  const max = signed ? 2n ** 63n - 1n : 2n ** 64n - 1n;
  const min = -(2n ** 63n);
  const keep = BigInt(keepbits);
  const round = (v: bigint): bigint => {
    const used = BigInt(v === 0n ? 0 : v.toString(2).length);
    if (keep >= used) return v;
    const m = used - keep;
    let sum = v + ((v >> m) & 1n) + (1n << (m - 1n)) - 1n;
    if (sum > max) sum = max;
    return (sum >> m) << m;
  };
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    values[i] = v < 0n ? (v === min ? v : -round(-v)) : round(v);
  }
}

/** Bit-rounds `data` in place. */
function roundInPlace(data: TypedArray, layout: Layout, keepbits: number): void {
  if (layout.float) {
    const maskbits = MANTISSA_BITS[layout.componentBytes] - keepbits;
    if (maskbits <= 0) return;
    if (layout.float16InFloat32) roundFloat16InFloat32(data as Float32Array, maskbits);
    else if (layout.componentBytes === 4) roundWords(u32View(data), maskbits, 32);
    else roundFloat64(u32View(data), maskbits);
    return;
  }
  const { buffer, byteOffset, byteLength } = data;
  const signed = layout.signed;
  switch (layout.bytes) {
    case 1:
      roundIntegers(signed ? new Int8Array(buffer, byteOffset, byteLength) : new Uint8Array(buffer, byteOffset, byteLength), 8, signed, keepbits);
      break;
    case 2:
      roundIntegers(signed ? new Int16Array(buffer, byteOffset, byteLength / 2) : new Uint16Array(buffer, byteOffset, byteLength / 2), 16, signed, keepbits);
      break;
    case 4:
      roundIntegers(signed ? new Int32Array(buffer, byteOffset, byteLength / 4) : new Uint32Array(buffer, byteOffset, byteLength / 4), 32, signed, keepbits);
      break;
    case 8:
      roundIntegers64(signed ? new BigInt64Array(buffer, byteOffset, byteLength / 8) : new BigUint64Array(buffer, byteOffset, byteLength / 8), signed, keepbits);
      break;
  }
}

class BitroundCodec implements ArrayToArrayCodec {
  readonly kind = "array_to_array" as const;

  constructor(
    readonly name: string,
    private readonly keepbits: number,
    private readonly layout: Layout,
    /** Why this codec cannot encode its data type, if it cannot (`numcodecs.bitround` on integers). */
    private readonly encodeRefusal?: string,
  ) {}

  encodedSpec(spec: ChunkSpec): ChunkSpec {
    if (this.encodeRefusal !== undefined) return spec;
    const one = spec.dataType.allocate(1) as TypedArray;
    spec.dataType.setItem(one, 0, spec.fillValue);
    roundInPlace(one, this.layout, this.keepbits);
    return { ...spec, fillValue: spec.dataType.getItem(one, 0) };
  }

  encode(chunk: NdArray, spec: ChunkSpec, ctx: CodecCallContext): NdArray {
    if (this.encodeRefusal !== undefined) throw new ZarrError("UNSUPPORTED", `${this.encodeRefusal} (chunk "${ctx.key}")`);
    const data = elementsOf(chunk, spec.dataType, spec.shape, this.name, ctx) as TypedArray;
    // round a copy: the caller's array must not change
    const out = spec.dataType.allocate(shapeSize(spec.shape)) as TypedArray;
    // biome-ignore lint/suspicious/noExplicitAny: same element type on both sides
    (out as any).set(data);
    roundInPlace(out, this.layout, this.keepbits);
    return contiguous(out, spec.shape);
  }

  decode(chunk: NdArray): NdArray {
    return chunk;
  }

  toJSON(): ExtensionObject {
    return { name: this.name, configuration: { keepbits: this.keepbits } };
  }
}

function bitroundEntry(name: string, registered: boolean): CodecEntry {
  return {
    type: "codec",
    name,
    codecKind: "array_to_array",
    package: "@zarr/codec-filters",
    fromConfig(configuration, context) {
      const r: ConfigReader = new ConfigReader(name, configuration, context.path, ["keepbits"]);
      const keepbits = r.integer("keepbits", registered ? 1 : 0, 64);
      const dataType = context.spec.dataType;
      const layout = layoutOf(dataType, registered);
      if (layout === undefined || (!registered && dataType.kind === "complex")) {
        const supported = registered ? "integer, float, complex or datetime" : "float16, float32 or float64";
        r.failCodec(`the codec "${name}" needs ${supported} data, but the array entering it is ${dataType.name}`);
      }
      if (!registered && !layout.float) {
        // Reading is the identity, so data zarrs wrote this way reads; writing is refused, as numcodecs does.
        const refusal = `the codec "${name}" rounds floating-point data only, as numcodecs does ("Only float arrays (16-64bit) can be bit-rounded"); it cannot write ${dataType.name} data (the registered "bitround" codec can)`;
        return new BitroundCodec(name, keepbits, layout, refusal);
      }
      if (!registered && layout.float && keepbits > MANTISSA_BITS[layout.componentBytes]) {
        r.fail("keepbits", `${dataType.name} has only ${MANTISSA_BITS[layout.componentBytes]} mantissa bits, cannot keep ${keepbits}`);
      }
      return new BitroundCodec(name, keepbits, layout);
    },
  };
}

/**
 * The registered `bitround` codec entry (array→array): floats, complex, integers and
 * datetimes. `keepbits` ≥ 1; keeping at least all mantissa bits leaves floats unchanged.
 *
 * @example
 * ```ts
 * const codecs = [{ name: "bitround", configuration: { keepbits: 10 } }, "bytes"];
 * ```
 */
export const bitround: CodecEntry = bitroundEntry("bitround", true);

/**
 * The `numcodecs.bitround` codec entry (array→array): float16/32/64, `keepbits` from 0 to
 * the type's mantissa bits, as numcodecs checks. Integer arrays (as zarrs writes them)
 * read, since decoding is the identity; writing them is refused with `UNSUPPORTED`, as
 * numcodecs refuses them.
 *
 * @example
 * ```ts
 * const codecs = [{ name: "numcodecs.bitround", configuration: { keepbits: 3 } }, "bytes"];
 * ```
 */
export const numcodecsBitround: CodecEntry = bitroundEntry("numcodecs.bitround", false);
