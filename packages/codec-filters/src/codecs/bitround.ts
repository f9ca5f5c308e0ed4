/**
 * Bit rounding: `bitround` (registered) and `numcodecs.bitround`, `{keepbits}`.
 *
 * Floats keep `keepbits` mantissa bits, rounding the rest half to even on the bit
 * pattern exactly as numcodecs does (`b += ((b >> m) & 1) + (1 << (m - 1)) - 1; b &= mask`
 * with wrapping integer arithmetic). The registered `bitround` also rounds complex
 * components as floats, and integers (and datetimes, as int64) from their most significant
 * set bit, with a saturating add, as zarrs does. Decoding is the identity: the dropped bits
 * are gone.
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
} from "@zarr/spec";
import { contiguous, elementsOf } from "../chunk.js";
import { ConfigReader } from "../config.js";
import { float16BitsFromFloat32Bits, float32BitsFromFloat16Bits } from "../float16.js";

/** Mantissa bits of float16, float32 and float64. */
const MANTISSA_BITS: Record<number, number> = { 2: 10, 4: 23, 8: 52 };

/** Element kinds the rounding distinguishes. */
type Layout = { float: true; componentBytes: 2 | 4 | 8; float16InFloat32: boolean } | { float: false; bytes: 1 | 2 | 4 | 8 };

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
      if (!registered) return undefined;
      return size === 1 || size === 2 || size === 4 || size === 8 ? { float: false, bytes: size } : undefined;
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

/** Rounds unsigned integer patterns of `bits` ≤ 32 from their highest set bit (saturating). */
function roundIntegers(values: Uint8Array | Uint16Array | Uint32Array, bits: number, keepbits: number): void {
  const max = 2 ** bits - 1;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    const used = 32 - Math.clz32(v);
    if (keepbits >= used) continue;
    const m = used - keepbits;
    let sum = v + ((v >>> m) & 1) + 2 ** (m - 1) - 1;
    if (sum > max) sum = max;
    values[i] = sum - (sum % 2 ** m);
  }
}

/** As {@link roundIntegers} for 64-bit patterns. */
function roundIntegers64(values: BigUint64Array, keepbits: number): void {
  const max = 2n ** 64n - 1n;
  const keep = BigInt(keepbits);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    const used = BigInt(v.toString(2).length - (v === 0n ? 1 : 0));
    if (keep >= used) continue;
    const m = used - keep;
    let sum = v + ((v >> m) & 1n) + (1n << (m - 1n)) - 1n;
    if (sum > max) sum = max;
    values[i] = (sum >> m) << m;
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
  switch (layout.bytes) {
    case 1:
      roundIntegers(new Uint8Array(buffer, byteOffset, byteLength), 8, keepbits);
      break;
    case 2:
      roundIntegers(new Uint16Array(buffer, byteOffset, byteLength / 2), 16, keepbits);
      break;
    case 4:
      roundIntegers(new Uint32Array(buffer, byteOffset, byteLength / 4), 32, keepbits);
      break;
    case 8:
      roundIntegers64(new BigUint64Array(buffer, byteOffset, byteLength / 8), keepbits);
      break;
  }
}

class BitroundCodec implements ArrayToArrayCodec {
  readonly kind = "array_to_array" as const;

  constructor(
    readonly name: string,
    private readonly keepbits: number,
    private readonly layout: Layout,
  ) {}

  encodedSpec(spec: ChunkSpec): ChunkSpec {
    const one = spec.dataType.allocate(1) as TypedArray;
    spec.dataType.setItem(one, 0, spec.fillValue);
    roundInPlace(one, this.layout, this.keepbits);
    return { ...spec, fillValue: spec.dataType.getItem(one, 0) };
  }

  encode(chunk: NdArray, spec: ChunkSpec, ctx: CodecCallContext): NdArray {
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
      if (layout === undefined) {
        const supported = registered ? "integer, float, complex or datetime" : "float16, float32 or float64";
        r.failCodec(`the codec "${name}" needs ${supported} data, but the array entering it is ${dataType.name}`);
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
 * The `numcodecs.bitround` codec entry (array→array): float16/32/64 only, `keepbits` from
 * 0 to the type's mantissa bits, as numcodecs checks.
 *
 * @example
 * ```ts
 * const codecs = [{ name: "numcodecs.bitround", configuration: { keepbits: 3 } }, "bytes"];
 * ```
 */
export const numcodecsBitround: CodecEntry = bitroundEntry("numcodecs.bitround", false);
