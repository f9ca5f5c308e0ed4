/**
 * CF masking and packing of numbers, with xarray 2023.01's dtype rules
 * (`xarray/coding/variables.py`, applied in its order: `_Unsigned`, then the mask, then
 * scale and offset):
 *
 * - masking (`_FillValue`/`missing_value` → NaN) promotes integers of up to 2 bytes to
 *   float32 and wider ones to float64; floats keep their type;
 * - unpacking (`scale_factor`/`add_offset`) computes in float32 when the values are then
 *   float32 or float16, or are integers of up to 2 bytes with no `add_offset`, and in float64
 *   otherwise. A masked int16 is float32 by then, so packed int16 with a `_FillValue`
 *   decodes to float32 even with an offset.
 *
 * NumPy computes in the array's precision (scalars are rounded to it first), which
 * `Math.fround` reproduces for float32.
 */
import { type JsonValue, ZarrError } from "@zarr/spec";

/** What a numeric variable's values are at a step of decoding. */
export interface NumericType {
  kind: "int" | "uint" | "float";
  /** Bytes per element (float16 counts 2 though it is held in a Float32Array). */
  size: number;
}

/** The CF attributes that change numbers, from a variable's `encoding`. */
export interface PackingAttributes {
  scale_factor?: JsonValue;
  add_offset?: JsonValue;
  _FillValue?: JsonValue;
  missing_value?: JsonValue;
  _Unsigned?: JsonValue;
}

/** Numbers decoded: the float32/float64 values (or the input, untouched) and their type. */
export interface DecodedNumbers {
  data: ArrayLike<number | bigint>;
  type: NumericType;
}

const toNumber = (v: JsonValue | undefined): number | undefined => {
  if (typeof v === "number") return v;
  if (v === "NaN") return Number.NaN;
  if (Array.isArray(v) && v.length === 1) return toNumber(v[0]);
  return undefined;
};

function attributeNumber(value: JsonValue | undefined, name: string): number {
  const n = toNumber(value);
  if (n === undefined) throw new ZarrError("METADATA_INVALID", `The ${name} attribute must be a number, got ${JSON.stringify(value)}`);
  return n;
}

/** The fill values of `_FillValue` and `missing_value` (either may be a list), as numbers. */
function fillValues(attrs: PackingAttributes): number[] {
  const out: number[] = [];
  for (const raw of [attrs.missing_value, attrs._FillValue]) {
    if (raw === undefined || raw === null) continue;
    for (const v of Array.isArray(raw) ? raw : [raw]) {
      const n = typeof v === "boolean" ? Number(v) : toNumber(v);
      if (n !== undefined) out.push(n);
    }
  }
  return out;
}

/**
 * The float size (4 or 8 bytes) xarray 2023.01 unpacks values of `type` to
 * (`_choose_float_dtype`): float32 for float16/float32 and for integers of up to 2 bytes
 * without an offset, float64 otherwise.
 */
export function chooseFloatSize(type: NumericType, hasOffset: boolean): 4 | 8 {
  if (type.kind === "float" && type.size <= 4) return 4;
  if (type.kind !== "float" && type.size <= 2 && !hasOffset) return 4;
  return 8;
}

/** Wraps `n` into the range of an integer type (NumPy's cast of a fill value). */
function wrapInteger(n: number, type: NumericType): number {
  const bits = type.size * 8;
  const span = 2 ** bits;
  let v = ((n % span) + span) % span;
  if (type.kind === "int" && v >= span / 2) v -= span;
  return v;
}

function reinterpret(data: ArrayLike<number | bigint>, type: NumericType, kind: "int" | "uint"): ArrayLike<number | bigint> {
  const view = data as unknown as ArrayBufferView & { length: number };
  const { buffer, byteOffset, length } = view as unknown as Int8Array;
  const Ctor = {
    int: { 1: Int8Array, 2: Int16Array, 4: Int32Array, 8: BigInt64Array },
    uint: { 1: Uint8Array, 2: Uint16Array, 4: Uint32Array, 8: BigUint64Array },
  }[kind][type.size as 1 | 2 | 4 | 8];
  return new Ctor(buffer as ArrayBuffer, byteOffset, length);
}

/**
 * Applies `_Unsigned`, `_FillValue`/`missing_value` (→ NaN) and `scale_factor`/`add_offset`
 * to numbers of `type`, as xarray 2023.01 does. Returns the input untouched when no
 * attribute applies.
 *
 * @example
 * ```ts
 * const { data, type } = unpackNumbers(new Int16Array([100, -32767]), { kind: "int", size: 2 },
 *   { scale_factor: 0.5, _FillValue: -32767 });
 * // data: Float32Array [50, NaN], type: { kind: "float", size: 4 }
 * ```
 */
export function unpackNumbers(input: ArrayLike<number | bigint>, inputType: NumericType, attrs: PackingAttributes): DecodedNumbers {
  let data = input;
  let type = inputType;
  let fills = fillValues(attrs);

  if (attrs._Unsigned === "true" && type.kind === "int") {
    type = { kind: "uint", size: type.size };
    data = reinterpret(data, inputType, "uint");
    fills = fills.map((f) => wrapInteger(f, type));
  } else if (attrs._Unsigned === "false" && type.kind === "uint") {
    type = { kind: "int", size: type.size };
    data = reinterpret(data, inputType, "int");
    fills = fills.map((f) => wrapInteger(f, type));
  }

  const encoded = fills.filter((f) => !Number.isNaN(f));
  if (encoded.length > 0) {
    const size = type.kind === "float" ? (type.size <= 4 ? 4 : 8) : type.size <= 2 ? 4 : 8;
    const out = size === 4 ? new Float32Array(data.length) : new Float64Array(data.length);
    const targets = size === 4 ? encoded.map(Math.fround) : encoded;
    for (let i = 0; i < data.length; i++) out[i] = Number(data[i]);
    for (let i = 0; i < out.length; i++) if (targets.includes(out[i])) out[i] = Number.NaN;
    data = out;
    type = { kind: "float", size: type.kind === "float" ? type.size : size };
  }

  const hasScale = attrs.scale_factor !== undefined;
  const hasOffset = attrs.add_offset !== undefined;
  if (hasScale || hasOffset) {
    const size = chooseFloatSize(type, hasOffset);
    const round = size === 4 ? Math.fround : (x: number) => x;
    const scale = hasScale ? attributeNumber(attrs.scale_factor, "scale_factor") : undefined;
    const offset = hasOffset ? attributeNumber(attrs.add_offset, "add_offset") : undefined;
    const out = size === 4 ? new Float32Array(data.length) : new Float64Array(data.length);
    for (let i = 0; i < data.length; i++) out[i] = Number(data[i]);
    if (scale !== undefined) {
      const s = round(scale);
      for (let i = 0; i < out.length; i++) out[i] = out[i] * s;
    }
    if (offset !== undefined) {
      const o = round(offset);
      for (let i = 0; i < out.length; i++) out[i] = out[i] + o;
    }
    data = out;
    type = { kind: "float", size };
  }
  return { data, type };
}
