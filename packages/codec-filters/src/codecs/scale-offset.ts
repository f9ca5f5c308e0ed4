/**
 * The registered `scale_offset` codec `{offset, scale}` (array→array, same data type):
 * encodes `(x - offset) * scale`, decodes `x / scale + offset`, in the array's own type.
 * `offset` and `scale` are written like fill values of that type (`"NaN"`, `"0x…"`, …).
 *
 * Floats round to the type after each operation. Integers wrap around (two's complement)
 * and divide truncating toward zero; `scale` must not be 0 for them. A missing `offset`
 * or `scale` reads as 0 or 1 (zarrs does the same); `toJSON` always writes both.
 */
import {
  type ArrayToArrayCodec,
  type ChunkSpec,
  type CodecCallContext,
  type CodecEntry,
  type ExtensionObject,
  type JsonValue,
  type NdArray,
  shapeSize,
  type TypedArray,
} from "@zarr/spec";
import { contiguous, elementsOf } from "../chunk.js";
import { ConfigReader } from "../config.js";
import { incomingNumType } from "../dtype-config.js";
import { roundToFloat16 } from "../float16.js";
import { allocateNum, isBigIntType, type NumType } from "../numeric-type.js";
import { transformScalar } from "../scalar-fill.js";

const NAME = "scale_offset";

/** `(a - offset) * scale` in type `t`. */
export function scaleOffsetEncode(a: TypedArray, t: NumType, n: number, offset: number | bigint, scale: number | bigint): TypedArray {
  const out = allocateNum(t, n);
  if (isBigIntType(t)) {
    const s = a as BigInt64Array;
    const o = out as BigInt64Array;
    const off = offset as bigint;
    const sc = scale as bigint;
    for (let i = 0; i < n; i++) o[i] = (s[i] - off) * sc; // the store wraps to 64 bits
    return out;
  }
  const s = a as Float64Array;
  const o = out as Float64Array;
  const off = offset as number;
  const sc = scale as number;
  if (t.code === "f2") for (let i = 0; i < n; i++) o[i] = roundToFloat16(roundToFloat16(s[i] - off) * sc);
  else if (t.code === "f4") for (let i = 0; i < n; i++) o[i] = Math.fround(s[i] - off) * sc;
  else if (t.code === "f8") for (let i = 0; i < n; i++) o[i] = (s[i] - off) * sc;
  else if (t.size === 4) for (let i = 0; i < n; i++) o[i] = Math.imul((s[i] - off) | 0, sc);
  else for (let i = 0; i < n; i++) o[i] = (s[i] - off) * sc; // < 2^33: exact, and the store wraps
  return out;
}

/** `a / scale + offset` in type `t` (integer division truncates toward zero). */
export function scaleOffsetDecode(a: TypedArray, t: NumType, n: number, offset: number | bigint, scale: number | bigint, out: TypedArray): TypedArray {
  if (isBigIntType(t)) {
    const s = a as BigInt64Array;
    const o = out as BigInt64Array;
    const off = offset as bigint;
    const sc = scale as bigint;
    for (let i = 0; i < n; i++) o[i] = s[i] / sc + off;
    return out;
  }
  const s = a as Float64Array;
  const o = out as Float64Array;
  const off = offset as number;
  const sc = scale as number;
  if (t.code === "f2") for (let i = 0; i < n; i++) o[i] = roundToFloat16(roundToFloat16(s[i] / sc) + off);
  else if (t.code === "f4") for (let i = 0; i < n; i++) o[i] = Math.fround(s[i] / sc) + off;
  else if (t.code === "f8") for (let i = 0; i < n; i++) o[i] = s[i] / sc + off;
  // |a| < 2^32: the float quotient truncates to the exact integer quotient
  else for (let i = 0; i < n; i++) o[i] = Math.trunc(s[i] / sc) + off;
  return out;
}

class ScaleOffsetCodec implements ArrayToArrayCodec {
  readonly kind = "array_to_array" as const;
  readonly name = NAME;

  constructor(
    private readonly type: NumType,
    private readonly offset: number | bigint,
    private readonly scale: number | bigint,
    private readonly json: { offset: JsonValue; scale: JsonValue },
  ) {}

  encodedSpec(spec: ChunkSpec): ChunkSpec {
    const fill = transformScalar(spec.fillValue, spec.dataType, spec.dataType, (d, n) =>
      scaleOffsetEncode(d, this.type, n, this.offset, this.scale),
    );
    return { ...spec, fillValue: fill };
  }

  encode(chunk: NdArray, spec: ChunkSpec, ctx: CodecCallContext): NdArray {
    const data = elementsOf(chunk, spec.dataType, spec.shape, NAME, ctx) as TypedArray;
    return contiguous(scaleOffsetEncode(data, this.type, shapeSize(spec.shape), this.offset, this.scale), spec.shape);
  }

  decode(chunk: NdArray, spec: ChunkSpec, ctx: CodecCallContext): NdArray {
    const n = shapeSize(spec.shape);
    const data = elementsOf(chunk, spec.dataType, spec.shape, NAME, ctx) as TypedArray;
    const out = spec.dataType.allocate(n) as TypedArray;
    return contiguous(scaleOffsetDecode(data, this.type, n, this.offset, this.scale, out), spec.shape);
  }

  toJSON(): ExtensionObject {
    return { name: NAME, configuration: { offset: this.json.offset, scale: this.json.scale } };
  }
}

/**
 * The registered `scale_offset` codec entry (array→array) for integer and float data.
 *
 * @example
 * ```ts
 * const codecs = [{ name: "scale_offset", configuration: { offset: 5, scale: 0.1 } }, "bytes"];
 * ```
 */
export const scaleOffset: CodecEntry = {
  type: "codec",
  name: NAME,
  codecKind: "array_to_array",
  package: "@zarr/codec-filters",
  fromConfig(configuration, context) {
    const r: ConfigReader = new ConfigReader(NAME, configuration, context.path, ["offset", "scale"]);
    const dataType = context.spec.dataType;
    const type = incomingNumType(r, "scale", dataType, "iuf");
    const read = (key: "offset" | "scale", fallback: number): { json: JsonValue; value: number | bigint } => {
      const json = r.has(key) ? (r.raw(key) as JsonValue) : fallback;
      const parsed = dataType.parseFillValue(json, r.at(key));
      return { json, value: isBigIntType(type) ? BigInt(parsed as bigint) : Number(parsed) };
    };
    const offset = read("offset", 0);
    const scale = read("scale", 1);
    if (type.kind !== "f" && (scale.value === 0 || scale.value === 0n)) r.fail("scale", "an integer scale of 0 cannot be decoded");
    return new ScaleOffsetCodec(type, offset.value, scale.value, { offset: offset.json, scale: scale.json });
  },
};
