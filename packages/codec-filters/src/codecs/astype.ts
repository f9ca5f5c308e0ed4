/**
 * `numcodecs.astype` `{encode_dtype, decode_dtype}`: casts the chunk to `encode_dtype`
 * when encoding and back to `decode_dtype` when decoding, with NumPy's cast rules
 * (see `numpy-cast.ts`): lossy when the encoded type is narrower.
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
import { castArray } from "../numpy-cast.js";
import { transformScalar } from "../scalar-fill.js";

const NAME = "numcodecs.astype";

class AsTypeCodec implements ArrayToArrayCodec {
  readonly kind = "array_to_array" as const;
  readonly name = NAME;

  constructor(
    private readonly encodeDtype: NumericDtype,
    private readonly decodeDtype: NumericDtype,
    private readonly encodedType: DataType,
  ) {}

  encodedSpec(spec: ChunkSpec): ChunkSpec {
    const fill = transformScalar(spec.fillValue, spec.dataType, this.encodedType, (d, n) =>
      castArray(d, this.decodeDtype.num, this.encodeDtype.num, n),
    );
    return withDataType(spec, this.encodedType, fill);
  }

  encode(chunk: NdArray, spec: ChunkSpec, ctx: CodecCallContext): NdArray {
    const n = shapeSize(spec.shape);
    const data = elementsOf(chunk, spec.dataType, spec.shape, NAME, ctx) as TypedArray;
    const out = this.encodedType.allocate(n) as TypedArray;
    return contiguous(castArray(data, this.decodeDtype.num, this.encodeDtype.num, n, out), spec.shape);
  }

  decode(chunk: NdArray, spec: ChunkSpec, ctx: CodecCallContext): NdArray {
    const n = shapeSize(spec.shape);
    const enc = elementsOf(chunk, this.encodedType, spec.shape, NAME, ctx) as TypedArray;
    const out = spec.dataType.allocate(n) as TypedArray;
    return contiguous(castArray(enc, this.encodeDtype.num, this.decodeDtype.num, n, out), spec.shape);
  }

  toJSON(): ExtensionObject {
    return { name: NAME, configuration: { encode_dtype: this.encodeDtype.text, decode_dtype: this.decodeDtype.text } };
  }
}

/**
 * The `numcodecs.astype` codec entry (array→array) for bool, integer, float and complex
 * data. `decode_dtype` (default: the array's type, as zarr-python 3 fills it in) must name
 * the array's data type.
 *
 * @example
 * ```ts
 * const codecs = [{ name: "numcodecs.astype",
 *   configuration: { encode_dtype: "<f4", decode_dtype: "<f8" } }, "bytes"];
 * ```
 */
export const asType: CodecEntry = {
  type: "codec",
  name: NAME,
  codecKind: "array_to_array",
  package: "@zarr/codec-filters",
  async fromConfig(configuration, context) {
    const r: ConfigReader = new ConfigReader(NAME, configuration, context.path, ["encode_dtype", "decode_dtype"]);
    const incoming = incomingNumType(r, "decode_dtype", context.spec.dataType, "biufc");
    const decodeDtype = numericDtype(r, "decode_dtype", "biufc", incoming.v3);
    requireSameType(r, "decode_dtype", decodeDtype, context.spec.dataType);
    const encodeDtype = numericDtype(r, "encode_dtype", "biufc");
    const encodedType =
      encodeDtype.num === decodeDtype.num ? context.spec.dataType : await resolveNum(context, encodeDtype.num);
    return new AsTypeCodec(encodeDtype, decodeDtype, encodedType);
  },
};
