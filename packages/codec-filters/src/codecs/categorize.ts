/**
 * `numcodecs.categorize` `{labels, dtype, astype?}`: strings become integer codes, label
 * `i` (0-based) → `i + 1` and anything else → 0; decoding maps codes back, unknown codes to
 * `""`. When a label repeats, the last occurrence wins (numcodecs assigns in label order).
 */
import {
  type ArrayToArrayCodec,
  type ChunkSpec,
  type CodecCallContext,
  type CodecEntry,
  type DataType,
  type ExtensionObject,
  type NdArray,
  type Scalar,
  shapeSize,
  type TypedArray,
} from "@zarr/spec";
import { contiguous, elementsOf, withDataType } from "../chunk.js";
import { ConfigReader } from "../config.js";
import { type NumericDtype, numericDtype, resolveNum } from "../dtype-config.js";
import { parseNumpyDtype } from "../numpy-dtype.js";
import { isBigIntType } from "../numeric-type.js";

const NAME = "numcodecs.categorize";

class CategorizeCodec implements ArrayToArrayCodec {
  readonly kind = "array_to_array" as const;
  readonly name = NAME;
  private readonly codes = new Map<string, number>();

  constructor(
    private readonly labels: readonly string[],
    private readonly dtype: string,
    private readonly astype: NumericDtype,
    private readonly encodedType: DataType,
  ) {
    labels.forEach((label, i) => {
      this.codes.set(label, i + 1);
    });
  }

  private code(value: Scalar): number {
    return typeof value === "string" ? (this.codes.get(value) ?? 0) : 0;
  }

  encodedSpec(spec: ChunkSpec): ChunkSpec {
    const code = this.code(spec.fillValue);
    return withDataType(spec, this.encodedType, isBigIntType(this.astype.num) ? BigInt(code) : code);
  }

  encode(chunk: NdArray, spec: ChunkSpec, ctx: CodecCallContext): NdArray {
    const n = shapeSize(spec.shape);
    const data = elementsOf(chunk, spec.dataType, spec.shape, NAME, ctx);
    const out = this.encodedType.allocate(n) as TypedArray;
    if (isBigIntType(this.astype.num)) {
      const o = out as BigInt64Array;
      for (let i = 0; i < n; i++) o[i] = BigInt(this.code(spec.dataType.getItem(data, i)));
    } else {
      const o = out as Int32Array;
      for (let i = 0; i < n; i++) o[i] = this.code(spec.dataType.getItem(data, i));
    }
    return contiguous(out, spec.shape);
  }

  decode(chunk: NdArray, spec: ChunkSpec, ctx: CodecCallContext): NdArray {
    const n = shapeSize(spec.shape);
    const enc = elementsOf(chunk, this.encodedType, spec.shape, NAME, ctx) as TypedArray;
    const dataType = spec.dataType;
    const out = dataType.allocate(n);
    const count = this.labels.length;
    for (let i = 0; i < n; i++) {
      const code = Number(enc[i]);
      dataType.setItem(out, i, code >= 1 && code <= count ? this.labels[code - 1] : "");
    }
    return contiguous(out, spec.shape);
  }

  toJSON(): ExtensionObject {
    return { name: NAME, configuration: { labels: [...this.labels], dtype: this.dtype, astype: this.astype.text } };
  }
}

/**
 * The `numcodecs.categorize` codec entry (array→array, string data → integer codes).
 * `dtype` is `"|O"` for variable-length strings or `"<U<n>"` for fixed_length_utf32;
 * `astype` (default `"|u1"`) is an integer type large enough for every code.
 *
 * @example
 * ```ts
 * const codecs = [{ name: "numcodecs.categorize",
 *   configuration: { labels: ["female", "male"], dtype: "|O", astype: "|u1" } }, "bytes"];
 * ```
 */
export const categorize: CodecEntry = {
  type: "codec",
  name: NAME,
  codecKind: "array_to_array",
  package: "@zarr/codec-filters",
  async fromConfig(configuration, context) {
    const r: ConfigReader = new ConfigReader(NAME, configuration, context.path, ["labels", "dtype", "astype"]);
    const dataType = context.spec.dataType;
    if (dataType.kind !== "string") {
      r.failCodec(`the codec "${NAME}" needs string data, but the array entering it is ${dataType.name}`);
    }
    const dtype = r.string("dtype", dataType.byteSize === undefined ? "|O" : `<U${dataType.byteSize / 4}`);
    const parsed = parseNumpyDtype(dtype);
    if (parsed === undefined || (parsed.kind !== "O" && parsed.kind !== "U")) {
      r.fail("dtype", `expected a unicode ("<U…") or object ("|O") NumPy data type, found ${JSON.stringify(dtype)}`);
    }
    const maxChars = dataType.byteSize === undefined ? undefined : dataType.byteSize / 4;
    const rawLabels = r.raw("labels");
    if (!Array.isArray(rawLabels)) r.fail("labels", "expected an array of strings");
    const labels: string[] = [];
    rawLabels.forEach((label, i) => {
      if (typeof label !== "string") throw r.fail("labels", `label ${i} is not a string`);
      if (maxChars !== undefined && [...label].length > maxChars) {
        r.fail("labels", `label ${JSON.stringify(label)} is longer than the ${maxChars} characters of ${dataType.name}`);
      }
      labels.push(label);
    });
    const astype = numericDtype(r, "astype", "iu", "|u1");
    const maxCode = astype.num.kind === "u" ? 2 ** (8 * astype.num.size) - 1 : 2 ** (8 * astype.num.size - 1) - 1;
    if (labels.length > maxCode) r.fail("astype", `${labels.length} labels do not fit ${astype.num.v3} codes`);
    return new CategorizeCodec(labels, dtype, astype, await resolveNum(context, astype.num));
  },
};
