/**
 * NumPy data types as Zarr v2 writes them (`"<i4"`, `">M8[10s]"`, `"|S12"`,
 * `[["x", "<f4"], ["z", "<i2", [2, 2]]]`) and their Zarr v3 equivalents.
 *
 * | v2 `dtype` | v3 data type | byte order |
 * |---|---|---|
 * | `\|b1` | `bool` | — |
 * | `\|i1` … `<i8`, `\|u1` … `<u8` | `int8` … `uint64` | `<` / `>` |
 * | `<f2`, `<f4`, `<f8` | `float16`, `float32`, `float64` | `<` / `>` |
 * | `<c8`, `<c16` | `complex64`, `complex128` | `<` / `>` |
 * | `<M8[unit]`, `<m8[unit]` (`[10s]`: scale factor 10; no unit: `generic`) | `numpy.datetime64` / `numpy.timedelta64` `{unit, scale_factor}` | `<` / `>` |
 * | `\|S<n>` | `null_terminated_bytes` `{length_bytes: n}` | — |
 * | `<U<n>` | `fixed_length_utf32` `{length_bytes: 4n}` | `<` / `>` |
 * | `\|V<n>` | `r<8n>` | — |
 * | structured list | `struct` `{fields: [{name, data_type, shape?}]}` | every multi-byte field the same |
 * | `\|O` | decided by the object codec: `string` (vlen-utf8), `bytes` (vlen-bytes), `object` (json2, msgpack2) | — |
 */
import {
  describeJson,
  type ExtensionObject,
  isJsonObject,
  type JsonObject,
  type JsonPath,
  type JsonValue,
  MetadataError,
  ZarrError,
} from "@zarr/spec";

/** Byte order of a NumPy type: little, big, or not applicable (`|`). */
export type ByteOrder = "<" | ">" | "|";

/** A NumPy scalar type (`"<i4"`, `"|S7"`, `"<M8[ns]"`, `"|O"`). */
export interface SimpleDtype {
  readonly kind: "b" | "i" | "u" | "f" | "c" | "M" | "m" | "S" | "U" | "V" | "O";
  readonly order: ByteOrder;
  /** Bytes per element (for `U`, 4 per character; 0 for objects, whose size is not fixed). */
  readonly itemSize: number;
  /** Datetime unit (`"ns"`, `"D"`, `"generic"`) for `M`/`m`. */
  readonly unit?: string;
  /** Datetime unit multiplier (`10` in `[10s]`). */
  readonly scale?: number;
}

/** A field of a structured type. */
export interface DtypeField {
  readonly name: string;
  readonly dtype: Dtype;
  /** Sub-array shape (`[]` for a plain field). */
  readonly shape: readonly number[];
}

/** A NumPy structured (record) type. */
export interface StructDtype {
  readonly kind: "struct";
  readonly fields: readonly DtypeField[];
}

/** Any NumPy type Zarr v2 can describe. */
export type Dtype = SimpleDtype | StructDtype;

const NUMERIC_SIZES: Record<string, readonly number[]> = {
  b: [1],
  i: [1, 2, 4, 8],
  u: [1, 2, 4, 8],
  f: [2, 4, 8],
  c: [8, 16],
  M: [8],
  m: [8],
};

const UNITS = new Set(["Y", "M", "W", "D", "h", "m", "s", "ms", "us", "μs", "ns", "ps", "fs", "as"]);

// NumPy names numcodecs configurations may use instead of type strings.
const NAMED: Record<string, string> = {
  bool: "|b1",
  int8: "|i1",
  uint8: "|u1",
  int16: "<i2",
  uint16: "<u2",
  int32: "<i4",
  uint32: "<u4",
  int64: "<i8",
  uint64: "<u8",
  float16: "<f2",
  float32: "<f4",
  float64: "<f8",
  complex64: "<c8",
  complex128: "<c16",
  // the one-letter codes zarr-python 2.13's experimental v3 writes for single bytes
  i1: "|i1",
  u1: "|u1",
  b1: "|b1",
};

const MAX_NESTING = 32;

/**
 * Parses a NumPy type string (`"<i4"`, `">U5"`, `"<M8[10s]"`, `"|O"`, also NumPy names
 * such as `"int16"`); `undefined` when it is not one.
 */
export function parseTypestr(text: string): SimpleDtype | undefined {
  // Own properties only: a dtype such as "constructor" must not find Object.prototype's.
  const named = Object.hasOwn(NAMED, text) ? NAMED[text] : undefined;
  if (named !== undefined) text = named;
  const m = /^([<>|=]?)([biufcMmSUVO])(\d*)(?:\[(\d*)([A-Za-zμ]+)\])?$/.exec(text);
  if (m === null) return undefined;
  const [, orderText, kindText, sizeText, scaleText, unitText] = m;
  const kind = kindText as SimpleDtype["kind"];
  let order: ByteOrder = orderText === ">" ? ">" : orderText === "|" ? "|" : "<";
  if (kind === "O") return sizeText === "" || sizeText === "8" ? { kind, order: "|", itemSize: 0 } : undefined;
  if (sizeText === "") {
    if (kind !== "M" && kind !== "m" && kind !== "b") return undefined;
  }
  const size = sizeText === "" ? (kind === "b" ? 1 : 8) : Number(sizeText);
  if (!Number.isSafeInteger(size)) return undefined;
  if (Object.hasOwn(NUMERIC_SIZES, kind)) {
    if (!NUMERIC_SIZES[kind].includes(size)) return undefined;
    if (size === 1) order = "|";
  } else if (kind === "S" || kind === "V") {
    order = "|";
  }
  const itemSize = kind === "U" ? size * 4 : size;
  if (itemSize > 2 ** 31) return undefined;
  if (kind === "M" || kind === "m") {
    if (unitText === undefined) return { kind, order, itemSize, unit: "generic", scale: 1 };
    if (!UNITS.has(unitText)) return undefined;
    const scale = scaleText === "" || scaleText === undefined ? 1 : Number(scaleText);
    if (!Number.isSafeInteger(scale) || scale < 1 || scale > 2 ** 31 - 1) return undefined;
    return { kind, order, itemSize, unit: unitText, scale };
  }
  if (unitText !== undefined) return undefined;
  if (kind === "U" && itemSize === 0) return undefined;
  return { kind, order, itemSize };
}

/**
 * Parses a Zarr v2 `dtype` (a type string or a structured list), throwing a
 * `MetadataError` at `path` when it is not one.
 */
export function parseDtype(json: JsonValue, path: JsonPath, depth = 0): Dtype {
  if (typeof json === "string") {
    const d = parseTypestr(json);
    if (d === undefined) throw new MetadataError(path, `${JSON.stringify(json)} is not a NumPy data type this implementation knows`);
    return d;
  }
  if (!Array.isArray(json)) {
    throw new MetadataError(path, `expected a NumPy type string or a list of fields, got ${describeJson(json)}`);
  }
  if (depth > MAX_NESTING) throw new MetadataError(path, `structured types nested deeper than ${MAX_NESTING} levels`);
  if (json.length === 0) throw new MetadataError(path, "a structured type needs at least one field");
  const fields: DtypeField[] = [];
  const names = new Set<string>();
  json.forEach((item, i) => {
    const at = [...path, i];
    if (!Array.isArray(item) || item.length < 2 || item.length > 3) {
      throw new MetadataError(at, `expected [name, type] or [name, type, shape], got ${describeJson(item)}`);
    }
    const [name, type, shape] = item;
    if (typeof name !== "string") throw new MetadataError([...at, 0], `expected a field name, got ${describeJson(name)}`);
    if (name !== "" && names.has(name)) throw new MetadataError([...at, 0], `the field name "${name}" appears twice`);
    names.add(name);
    const dtype = parseDtype(type, [...at, 1], depth + 1);
    if (dtype.kind === "O") throw new MetadataError([...at, 1], "object fields inside structured types are not supported");
    let dims: number[] = [];
    if (shape !== undefined) {
      if (!Array.isArray(shape) || !shape.every((s) => typeof s === "number" && Number.isSafeInteger(s) && s >= 0)) {
        throw new MetadataError([...at, 2], `expected a sub-array shape (a list of non-negative integers), got ${describeJson(shape)}`);
      }
      dims = shape as number[];
    }
    fields.push({ name, dtype, shape: dims });
  });
  return { kind: "struct", fields };
}

/** Bytes per element (0 for objects). */
export function itemSizeOf(d: Dtype): number {
  if (d.kind !== "struct") return d.itemSize;
  let n = 0;
  for (const f of d.fields) n += itemSizeOf(f.dtype) * f.shape.reduce((a, b) => a * b, 1);
  return n;
}

/**
 * The byte order that decides how a type's bytes are laid out: `|` when no part of it
 * has one; for structures, the order every multi-byte field shares (mixed orders are
 * `UNSUPPORTED`: the v3 model has one byte order per array).
 */
export function byteOrderOf(d: Dtype): ByteOrder {
  if (d.kind !== "struct") return d.order;
  let order: ByteOrder = "|";
  for (const f of d.fields) {
    const o = byteOrderOf(f.dtype);
    if (o === "|") continue;
    if (order !== "|" && o !== order) {
      throw new ZarrError("UNSUPPORTED", "Structured types mixing little- and big-endian fields are not supported");
    }
    order = o;
  }
  return order;
}

const SIMPLE_NAMES: Record<string, string> = {
  b1: "bool",
  i1: "int8",
  i2: "int16",
  i4: "int32",
  i8: "int64",
  u1: "uint8",
  u2: "uint16",
  u4: "uint32",
  u8: "uint64",
  f2: "float16",
  f4: "float32",
  f8: "float64",
  c8: "complex64",
  c16: "complex128",
};

/**
 * The Zarr v3 data type of a NumPy type (as metadata). `|O` has none by itself: pass the
 * v3 data type its object codec implies as `objectType`.
 */
export function dtypeToDataType(d: Dtype, objectType?: string): string | ExtensionObject {
  if (d.kind === "struct") {
    return {
      name: "struct",
      configuration: {
        fields: d.fields.map((f) => {
          const out: JsonObject = { name: f.name, data_type: dtypeToDataType(f.dtype) as JsonValue };
          if (f.shape.length > 0) out.shape = [...f.shape];
          return out;
        }),
      },
    };
  }
  switch (d.kind) {
    case "M":
    case "m":
      return {
        name: d.kind === "M" ? "numpy.datetime64" : "numpy.timedelta64",
        configuration: { unit: d.unit ?? "generic", scale_factor: d.scale ?? 1 },
      };
    case "S":
      return { name: "null_terminated_bytes", configuration: { length_bytes: d.itemSize } };
    case "U":
      return { name: "fixed_length_utf32", configuration: { length_bytes: d.itemSize } };
    case "V":
      if (d.itemSize === 0) throw new ZarrError("UNSUPPORTED", "The zero-size void type |V0 is not supported");
      return `r${d.itemSize * 8}`;
    case "O":
      if (objectType === undefined) throw new ZarrError("UNSUPPORTED", "An object array (|O) needs an object codec (vlen-utf8, vlen-bytes, json2, msgpack2)");
      return objectType;
    default:
      return SIMPLE_NAMES[`${d.kind}${d.itemSize}`];
  }
}

/** Normalises a data type definition (`"int16"` or `{name, configuration}`) to `{name, configuration}`. */
function asExtension(dt: string | ExtensionObject | JsonValue): { name: string; configuration: JsonObject } {
  if (typeof dt === "string") return { name: dt, configuration: {} };
  if (isJsonObject(dt) && typeof dt.name === "string") {
    return { name: dt.name, configuration: isJsonObject(dt.configuration) ? dt.configuration : {} };
  }
  throw new ZarrError("INVALID_ARGUMENT", `Not a data type: ${describeJson(dt as JsonValue)}`);
}

const V3_TO_CODE: Record<string, string> = Object.fromEntries(Object.entries(SIMPLE_NAMES).map(([k, v]) => [v, k]));

/**
 * The Zarr v2 `dtype` of a Zarr v3 data type stored in the given byte order (`"big"`
 * for `>`; ignored where order does not apply). Variable-size types (`string`, `bytes`,
 * `object`) are `|O`. Throws `UNSUPPORTED` for types v2 cannot describe.
 *
 * @example
 * ```ts
 * dataTypeToDtype("int32", "big");                                                   // ">i4"
 * dataTypeToDtype({ name: "numpy.datetime64", configuration: { unit: "s", scale_factor: 10 } }); // "<M8[10s]"
 * ```
 */
export function dataTypeToDtype(dataType: string | ExtensionObject | JsonValue, endian: "little" | "big" = "little"): JsonValue {
  const { name, configuration } = asExtension(dataType);
  const o = endian === "big" ? ">" : "<";
  const code = V3_TO_CODE[name];
  if (code !== undefined) return code === "b1" || code === "i1" || code === "u1" ? `|${code}` : `${o}${code}`;
  if (name === "numpy.datetime64" || name === "datetime64" || name === "numpy.timedelta64" || name === "timedelta64") {
    const k = name.includes("datetime") ? "M" : "m";
    const unit = configuration.unit;
    const scale = typeof configuration.scale_factor === "number" ? configuration.scale_factor : 1;
    if (unit === "generic" || unit === undefined) return `${o}${k}8`;
    return `${o}${k}8[${scale === 1 ? "" : scale}${unit}]`;
  }
  if (name === "null_terminated_bytes") return `|S${configuration.length_bytes}`;
  if (name === "fixed_length_utf32") return `${o}U${Number(configuration.length_bytes) / 4}`;
  const raw = /^r(\d+)$/.exec(name);
  if (raw !== null) return `|V${Number(raw[1]) / 8}`;
  if (name === "string" || name === "bytes" || name === "variable_length_bytes" || name === "object") return "|O";
  if (name === "struct" || name === "structured") {
    const fields = configuration.fields;
    if (!Array.isArray(fields)) throw new ZarrError("INVALID_ARGUMENT", "A struct data type needs a list of fields");
    return fields.map((f) => {
      const [fname, ftype, shape] = Array.isArray(f)
        ? [f[0], f[1], f[2]]
        : isJsonObject(f)
          ? [f.name, f.data_type, f.shape]
          : [undefined, undefined, undefined];
      if (typeof fname !== "string" || ftype === undefined) throw new ZarrError("INVALID_ARGUMENT", "A struct field needs a name and a data type");
      const entry: JsonValue[] = [fname, dataTypeToDtype(ftype, endian)];
      if (Array.isArray(shape) && shape.length > 0) entry.push(shape);
      return entry;
    });
  }
  throw new ZarrError("UNSUPPORTED", `The data type "${name}" has no Zarr v2 equivalent`);
}
