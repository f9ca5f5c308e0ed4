/**
 * `numcodecs.fixedscaleoffset` `{offset, scale, dtype, astype?}`: encodes
 * `round((x - offset) * scale)` cast to `astype`, decodes `y / scale + offset` cast back to
 * `dtype`, with NumPy 1.x's type promotion, rounding (half to even) and casts.
 */
import {
  type ArrayToArrayCodec,
  type ChunkSpec,
  type CodecCallContext,
  type CodecEntry,
  type DataType,
  type ExtensionObject,
  type JsonValue,
  type NdArray,
  shapeSize,
  type TypedArray,
} from "@zarr/spec";
import { contiguous, elementsOf, withDataType } from "../chunk.js";
import { ConfigReader } from "../config.js";
import { incomingNumType, type NumericDtype, numericDtype, requireSameType, resolveNum } from "../dtype-config.js";
import { applyScalar, aroundInPlace, type PyScalar, pyIntInRange, pyScalar } from "../numpy-arith.js";
import { castArray } from "../numpy-cast.js";
import type { NumType } from "../numeric-type.js";
import { transformScalar } from "../scalar-fill.js";

const NAME = "numcodecs.fixedscaleoffset";

/** `astype(around((a - offset) * scale))`. */
export function fixedScaleOffsetEncode(
  a: TypedArray,
  t: NumType,
  n: number,
  offset: PyScalar,
  scale: PyScalar,
  to: NumType,
  out?: TypedArray,
): TypedArray {
  const shifted = applyScalar("sub", a, t, n, offset);
  const scaled = applyScalar("mul", shifted.data, shifted.type, n, scale);
  aroundInPlace(scaled.data, scaled.type, n);
  return castArray(scaled.data, scaled.type, to, n, out);
}

/** `astype(a / scale + offset)`. */
export function fixedScaleOffsetDecode(
  a: TypedArray,
  t: NumType,
  n: number,
  offset: PyScalar,
  scale: PyScalar,
  to: NumType,
  out?: TypedArray,
): TypedArray {
  const divided = applyScalar("div", a, t, n, scale);
  const shifted = applyScalar("add", divided.data, divided.type, n, offset);
  return castArray(shifted.data, shifted.type, to, n, out);
}

/** Reads a Python number field (int or float) of a numcodecs configuration. */
export function pyScalarField(r: ConfigReader, key: string): { json: number | bigint; scalar: PyScalar } {
  const v: JsonValue | undefined = r.raw(key);
  if (v === undefined) r.fail(key, `the codec "${r.codec}" requires "${key}"`);
  if ((typeof v !== "number" || !Number.isFinite(v)) && typeof v !== "bigint") {
    r.fail(key, `expected a finite number, found ${JSON.stringify(v)}`);
  }
  const scalar = pyScalar(v);
  if (!pyIntInRange(scalar)) r.fail(key, "the integer does not fit NumPy's 64-bit integer types");
  return { json: v, scalar };
}

class FixedScaleOffsetCodec implements ArrayToArrayCodec {
  readonly kind = "array_to_array" as const;
  readonly name = NAME;

  constructor(
    private readonly offset: { json: number | bigint; scalar: PyScalar },
    private readonly scale: { json: number | bigint; scalar: PyScalar },
    private readonly dtype: NumericDtype,
    private readonly astype: NumericDtype,
    private readonly encodedType: DataType,
  ) {}

  private encodeData(a: TypedArray, n: number, out?: TypedArray): TypedArray {
    return fixedScaleOffsetEncode(a, this.dtype.num, n, this.offset.scalar, this.scale.scalar, this.astype.num, out);
  }

  encodedSpec(spec: ChunkSpec): ChunkSpec {
    const fill = transformScalar(spec.fillValue, spec.dataType, this.encodedType, (d, n) => this.encodeData(d, n));
    return withDataType(spec, this.encodedType, fill);
  }

  encode(chunk: NdArray, spec: ChunkSpec, ctx: CodecCallContext): NdArray {
    const n = shapeSize(spec.shape);
    const data = elementsOf(chunk, spec.dataType, spec.shape, NAME, ctx) as TypedArray;
    return contiguous(this.encodeData(data, n, this.encodedType.allocate(n) as TypedArray), spec.shape);
  }

  decode(chunk: NdArray, spec: ChunkSpec, ctx: CodecCallContext): NdArray {
    const n = shapeSize(spec.shape);
    const enc = elementsOf(chunk, this.encodedType, spec.shape, NAME, ctx) as TypedArray;
    const out = spec.dataType.allocate(n) as TypedArray;
    const { offset, scale } = this;
    return contiguous(
      fixedScaleOffsetDecode(enc, this.astype.num, n, offset.scalar, scale.scalar, this.dtype.num, out),
      spec.shape,
    );
  }

  toJSON(): ExtensionObject {
    return {
      name: NAME,
      configuration: {
        offset: this.offset.json,
        scale: this.scale.json,
        dtype: this.dtype.text,
        astype: this.astype.text,
      },
    };
  }
}

/**
 * The `numcodecs.fixedscaleoffset` codec entry (array→array) for integer and float data.
 * `dtype` (default: the array's type, as zarr-python 3 fills it in) must name the array's
 * data type; `astype` (default: `dtype`) is the encoded type.
 *
 * @example
 * ```ts
 * const codecs = [{ name: "numcodecs.fixedscaleoffset",
 *   configuration: { offset: 1000, scale: 10, dtype: "<f8", astype: "<i2" } }, "bytes"];
 * ```
 */
export const fixedScaleOffset: CodecEntry = {
  type: "codec",
  name: NAME,
  codecKind: "array_to_array",
  package: "@zarr/codec-filters",
  async fromConfig(configuration, context) {
    const r: ConfigReader = new ConfigReader(NAME, configuration, context.path, ["offset", "scale", "dtype", "astype"]);
    const incoming = incomingNumType(r, "dtype", context.spec.dataType, "iuf");
    const offset = pyScalarField(r, "offset");
    const scale = pyScalarField(r, "scale");
    const dtype = numericDtype(r, "dtype", "iuf", incoming.v3);
    requireSameType(r, "dtype", dtype, context.spec.dataType);
    const astype = r.has("astype") ? numericDtype(r, "astype", "biuf") : dtype;
    const encodedType = astype.num === dtype.num ? context.spec.dataType : await resolveNum(context, astype.num);
    return new FixedScaleOffsetCodec(offset, scale, dtype, astype, encodedType);
  },
};
