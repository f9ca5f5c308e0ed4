/**
 * `numcodecs.quantize` `{digits, dtype, astype?}`: keeps about `digits` decimal digits
 * after the point by rounding to a multiple of a power of two, exactly as numcodecs:
 *
 * ```
 * precision = 10. ** -digits
 * exp = math.log(precision, 10); exp = floor(exp) if exp < 0 else ceil(exp)
 * bits = ceil(math.log(10. ** -exp, 2)); scale = 2. ** bits
 * encoded = astype(around(scale * x) / scale)
 * ```
 *
 * The rounding is lossy; decoding only casts `astype` back to `dtype` (as numcodecs does).
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
import { contiguous, elementsOf, withDataType } from "../chunk.js";
import { ConfigReader } from "../config.js";
import { incomingNumType, type NumericDtype, numericDtype, requireSameType, resolveNum } from "../dtype-config.js";
import { applyScalar, aroundInPlace, type PyScalar } from "../numpy-arith.js";
import { castArray } from "../numpy-cast.js";
import type { NumType } from "../numeric-type.js";
import { transformScalar } from "../scalar-fill.js";

const NAME = "numcodecs.quantize";
const MAX_DIGITS = 300;

/** `10.0 ** k` as C's pow gives it for integer k (correctly rounded). */
function pow10(k: number): number {
  if (k >= 0) return 10 ** k;
  return 1 / 10 ** -k;
}

/** The power-of-two scale numcodecs' Quantize uses for `digits`. */
export function quantizeScale(digits: number): number {
  const precision = pow10(-digits);
  // Python's math.log(x, base) is log(x) / log(base)
  let exp = Math.log(precision) / Math.log(10);
  exp = exp < 0 ? Math.floor(exp) : Math.ceil(exp);
  const bits = Math.ceil(Math.log(pow10(-exp)) / Math.log(2));
  return 2 ** bits;
}

/** `astype(around(scale * a) / scale)`. */
export function quantizeEncode(a: TypedArray, t: NumType, n: number, digits: number, to: NumType, out?: TypedArray): TypedArray {
  const scale: PyScalar = { kind: "float", value: quantizeScale(digits) };
  const scaled = applyScalar("mul", a, t, n, scale);
  aroundInPlace(scaled.data, scaled.type, n);
  const divided = applyScalar("div", scaled.data, scaled.type, n, scale);
  return castArray(divided.data, divided.type, to, n, out);
}

class QuantizeCodec implements ArrayToArrayCodec {
  readonly kind = "array_to_array" as const;
  readonly name = NAME;

  constructor(
    private readonly digits: number,
    private readonly dtype: NumericDtype,
    private readonly astype: NumericDtype,
    private readonly encodedType: DataType,
  ) {}

  encodedSpec(spec: ChunkSpec): ChunkSpec {
    const fill = transformScalar(spec.fillValue, spec.dataType, this.encodedType, (d, n) =>
      quantizeEncode(d, this.dtype.num, n, this.digits, this.astype.num),
    );
    return withDataType(spec, this.encodedType, fill);
  }

  encode(chunk: NdArray, spec: ChunkSpec, ctx: CodecCallContext): NdArray {
    const n = shapeSize(spec.shape);
    const data = elementsOf(chunk, spec.dataType, spec.shape, NAME, ctx) as TypedArray;
    const out = this.encodedType.allocate(n) as TypedArray;
    return contiguous(quantizeEncode(data, this.dtype.num, n, this.digits, this.astype.num, out), spec.shape);
  }

  decode(chunk: NdArray, spec: ChunkSpec, ctx: CodecCallContext): NdArray {
    const n = shapeSize(spec.shape);
    const enc = elementsOf(chunk, this.encodedType, spec.shape, NAME, ctx) as TypedArray;
    const out = spec.dataType.allocate(n) as TypedArray;
    return contiguous(castArray(enc, this.astype.num, this.dtype.num, n, out), spec.shape);
  }

  toJSON(): ExtensionObject {
    return { name: NAME, configuration: { digits: this.digits, dtype: this.dtype.text, astype: this.astype.text } };
  }
}

/**
 * The `numcodecs.quantize` codec entry (array→array, float data). `dtype` (default: the
 * array's type) must name the array's data type; `astype` (default: `dtype`) is a float type.
 * Decoding is a cast only: the precision dropped when encoding is gone.
 *
 * @example
 * ```ts
 * const codecs = [{ name: "numcodecs.quantize", configuration: { digits: 2, dtype: "<f8" } }, "bytes"];
 * ```
 */
export const quantize: CodecEntry = {
  type: "codec",
  name: NAME,
  codecKind: "array_to_array",
  package: "@zarr/codec-filters",
  async fromConfig(configuration, context) {
    const r: ConfigReader = new ConfigReader(NAME, configuration, context.path, ["digits", "dtype", "astype"]);
    const incoming = incomingNumType(r, "dtype", context.spec.dataType, "f");
    const digits = r.integer("digits", -MAX_DIGITS, MAX_DIGITS);
    const dtype = numericDtype(r, "dtype", "f", incoming.v3);
    requireSameType(r, "dtype", dtype, context.spec.dataType);
    const astype = r.has("astype") ? numericDtype(r, "astype", "f") : dtype;
    const encodedType = astype.num === dtype.num ? context.spec.dataType : await resolveNum(context, astype.num);
    return new QuantizeCodec(digits, dtype, astype, encodedType);
  },
};
