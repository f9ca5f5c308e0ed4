/**
 * `numcodecs.delta` `{dtype, astype?}`: stores the first element of the chunk (in C order)
 * and then the differences of neighbours; decoding is the cumulative sum. Integer
 * differences and sums wrap around like NumPy's; float differences round to the type.
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
import { roundToFloat16 } from "../float16.js";
import { castArray } from "../numpy-cast.js";
import { allocateNum, isBigIntType, type NumType, promoteTypes, slotsOf } from "../numeric-type.js";
import { transformScalar } from "../scalar-fill.js";

const NAME = "numcodecs.delta";

/** `out[0] = a[0]; out[i] = a[i] - a[i-1]` in type `t` (NumPy's `np.diff`). */
export function deltaEncode(a: TypedArray, t: NumType, n: number): TypedArray {
  const out = allocateNum(t, n);
  const w = slotsOf(t);
  const slots = n * w;
  if (slots === 0) return out;
  if (isBigIntType(t)) {
    const s = a as BigInt64Array;
    const o = out as BigInt64Array;
    o[0] = s[0];
    for (let i = 1; i < slots; i++) o[i] = s[i] - s[i - 1]; // the store wraps to 64 bits
    return out;
  }
  const s = a as Float64Array;
  const o = out as Float64Array;
  for (let j = 0; j < w; j++) o[j] = s[j];
  if (t.code === "f2") {
    for (let i = 1; i < slots; i++) o[i] = roundToFloat16(s[i] - s[i - 1]);
  } else {
    // integers: the difference is exact and the store wraps; float32: the store rounds once
    for (let i = w; i < slots; i++) o[i] = s[i] - s[i - w];
  }
  return out;
}

/** Running sums of `a` (type `t`) in type `t`, in place. */
function cumulativeSumInPlace(a: TypedArray, t: NumType, n: number): void {
  const w = slotsOf(t);
  const slots = n * w;
  if (isBigIntType(t)) {
    const s = a as BigInt64Array;
    for (let i = 1; i < slots; i++) s[i] = s[i] + s[i - 1];
  } else if (t.code === "f2") {
    const s = a as Float32Array;
    for (let i = 1; i < slots; i++) s[i] = roundToFloat16(s[i] + s[i - 1]);
  } else {
    const s = a as Float64Array;
    for (let i = w; i < slots; i++) s[i] = s[i] + s[i - w];
  }
}

/**
 * `np.cumsum(enc, out=dec)` with `enc` of type `from` and `dec` of type `to`: NumPy picks
 * the loop of the promoted type, sums in it and casts each sum to the output type. For
 * integers this is the same as summing with wrap-around in the output type, except for
 * uint64 with a signed type, which NumPy promotes to float64.
 */
export function deltaDecode(enc: TypedArray, from: NumType, to: NumType, n: number, out: TypedArray): TypedArray {
  const promoted = promoteTypes(from, to);
  const intsOnly = promoted.kind === "i" || promoted.kind === "u";
  const acc = intsOnly ? to : promoted;
  const work = castArray(enc, from, acc, n, acc === to ? out : allocateNum(acc, n));
  cumulativeSumInPlace(work, acc, n);
  return acc === to ? work : castArray(work, acc, to, n, out);
}

class DeltaCodec implements ArrayToArrayCodec {
  readonly kind = "array_to_array" as const;
  readonly name = NAME;

  constructor(
    private readonly dtype: NumericDtype,
    private readonly astype: NumericDtype,
    private readonly encodedType: DataType,
  ) {}

  encodedSpec(spec: ChunkSpec): ChunkSpec {
    if (this.astype.num === this.dtype.num) return spec;
    const fill = transformScalar(spec.fillValue, spec.dataType, this.encodedType, (d, n) =>
      castArray(d, this.dtype.num, this.astype.num, n),
    );
    return withDataType(spec, this.encodedType, fill);
  }

  encode(chunk: NdArray, spec: ChunkSpec, ctx: CodecCallContext): NdArray {
    const n = shapeSize(spec.shape);
    const data = elementsOf(chunk, spec.dataType, spec.shape, NAME, ctx) as TypedArray;
    const diff = deltaEncode(data, this.dtype.num, n);
    if (this.astype.num === this.dtype.num) return contiguous(diff, spec.shape);
    const out = castArray(diff, this.dtype.num, this.astype.num, n, this.encodedType.allocate(n) as TypedArray);
    return contiguous(out, spec.shape);
  }

  decode(chunk: NdArray, spec: ChunkSpec, ctx: CodecCallContext): NdArray {
    const n = shapeSize(spec.shape);
    const enc = elementsOf(chunk, this.encodedType, spec.shape, NAME, ctx) as TypedArray;
    const out = spec.dataType.allocate(n) as TypedArray;
    return contiguous(deltaDecode(enc, this.astype.num, this.dtype.num, n, out), spec.shape);
  }

  toJSON(): ExtensionObject {
    return { name: NAME, configuration: { dtype: this.dtype.text, astype: this.astype.text } };
  }
}

/**
 * The `numcodecs.delta` codec entry (array→array). `dtype` must name the array's data type;
 * `astype` (default: `dtype`) is the data type of the encoded array.
 *
 * @example
 * ```ts
 * const registry = createRegistry([delta]);
 * const codecs = [{ name: "numcodecs.delta", configuration: { dtype: "<i4" } }, "bytes"];
 * ```
 */
export const delta: CodecEntry = {
  type: "codec",
  name: NAME,
  codecKind: "array_to_array",
  package: "@zarr/codec-filters",
  async fromConfig(configuration, context) {
    const r: ConfigReader = new ConfigReader(NAME, configuration, context.path, ["dtype", "astype"]);
    incomingNumType(r, "dtype", context.spec.dataType, "iufc");
    const dtype = numericDtype(r, "dtype", "iufc");
    requireSameType(r, "dtype", dtype, context.spec.dataType);
    const astype = r.has("astype") ? numericDtype(r, "astype", "iufc") : dtype;
    if ((dtype.num.kind === "c") !== (astype.num.kind === "c")) {
      r.fail("astype", "complex data can only be stored as a complex type, and a complex type only holds complex data");
    }
    const encodedType = astype.num === dtype.num ? context.spec.dataType : await resolveNum(context, astype.num);
    return new DeltaCodec(dtype, astype, encodedType);
  },
};
