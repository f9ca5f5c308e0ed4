/**
 * Encoding is decoding in reverse, as xarray's `to_zarr` does it: dates become numbers of
 * the variable's time units, booleans become int8 marked `dtype: "bool"`, floats are packed (`(x - add_offset) / scale_factor`, rounded
 * half to even into the integer type), missing values (NaN, `null`) become `_FillValue`,
 * and the CF attributes are written beside the user's. Zarr v2 keeps `_FillValue` in the
 * array's `fill_value` (where xarray reads it for v2); Zarr v3 gets a `_FillValue`
 * attribute too (where xarray reads it for v3: floats as base64 of a little-endian float64).
 */
import { registry as fullRegistry } from "@zarr/all";
import { createArray, createGroup, type Registry, set, type ZarrArray, type ZarrGroup } from "@zarr/core";
import type { JsonObject, JsonValue, Store } from "@zarr/spec";
import { ZarrError } from "@zarr/spec";
import { createArrayV2, createGroupV2 } from "@zarr/v2-compat";
import type { DateInput } from "./calendars.js";
import { floatFillValueAttribute } from "./fill-values.js";
import { chooseFloatSize } from "./mask-scale.js";
import { encodeTimes, isTimeUnits } from "./times.js";

/** Numeric data types a variable can be stored as. */
export type StorageType = "int8" | "int16" | "int32" | "int64" | "uint8" | "uint16" | "uint32" | "uint64" | "float32" | "float64";

/** How a variable is stored: xarray's `encoding`. */
export interface VariableEncoding {
  /** The stored type (default: the values' own: float64 for numbers, int64 for dates that are whole units, else float64). */
  dtype?: StorageType;
  scale_factor?: number;
  add_offset?: number;
  /** The stored value of missing elements (NaN or `null` in the values). */
  _FillValue?: number;
  /** Written as an attribute; masks like `_FillValue`. */
  missing_value?: number;
  /** Time units (`"days since 2000-01-01"`) for dates. */
  units?: string;
  /** The calendar of dates (default `standard`). */
  calendar?: string;
  /** Chunk shape (default: chosen from the size). */
  chunks?: number[];
}

/** A variable to encode: values in C order, dimension names, attributes and encoding. */
export interface VariableSpec {
  dims: readonly string[];
  /** Numbers (NaN: missing), dates (`Date`s or date parts; `null`: missing), strings or booleans. */
  data: ArrayLike<number> | readonly (Date | DateInput | null)[] | readonly string[] | readonly boolean[];
  /** Default: one dimension of `data.length`. */
  shape?: readonly number[];
  attributes?: JsonObject;
  encoding?: VariableEncoding;
}

/** A variable encoded for storage. */
export interface EncodedVariable {
  dataType: StorageType | "string";
  data: Int8Array | Int16Array | Int32Array | BigInt64Array | Uint8Array | Uint16Array | Uint32Array | BigUint64Array | Float32Array | Float64Array | string[];
  shape: number[];
  /** The user's attributes plus the CF ones (`scale_factor`, `add_offset`, `missing_value`, `units`, `calendar`; not `_FillValue`). */
  attributes: JsonObject;
  /** The stored fill value, when there is one. */
  fillValue: number | undefined;
}

const CONSTRUCTORS = {
  int8: Int8Array,
  int16: Int16Array,
  int32: Int32Array,
  uint8: Uint8Array,
  uint16: Uint16Array,
  uint32: Uint32Array,
  float32: Float32Array,
  float64: Float64Array,
} as const;

/** NumPy's `around`: halves go to the even neighbour. */
function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

function isDateLike(v: unknown): v is Date | DateInput {
  return v instanceof Date || (typeof v === "object" && v !== null && "year" in v);
}

/**
 * Encodes one variable as xarray would store it (see the module description). Throws
 * `INVALID_ARGUMENT` when the values do not fit the encoding (dates without time units,
 * a value outside the stored integer type, a shape that does not match the values).
 *
 * @example
 * ```ts
 * const e = encodeVariable({ dims: ["x"], data: [280.15, NaN],
 *   encoding: { dtype: "int16", scale_factor: 0.01, add_offset: 273.15, _FillValue: -32767 } });
 * // e.data: Int16Array [700, -32767]
 * ```
 */
export function encodeVariable(spec: VariableSpec): EncodedVariable {
  const encoding = spec.encoding ?? {};
  const shape = [...(spec.shape ?? [spec.data.length])];
  const length = shape.reduce((a, b) => a * b, 1);
  if (length !== spec.data.length) {
    throw new ZarrError("INVALID_ARGUMENT", `The shape [${shape.join(", ")}] holds ${length} values, but ${spec.data.length} were given`);
  }
  if (shape.length !== spec.dims.length) {
    throw new ZarrError("INVALID_ARGUMENT", `${spec.dims.length} dimension names for a shape of ${shape.length} dimensions`);
  }
  const attributes: JsonObject = { ...(spec.attributes ?? {}) };
  const first = Array.from({ length: spec.data.length }, (_, i) => spec.data[i]).find((v) => v !== null && v !== undefined);

  if (typeof first === "string") {
    return { dataType: "string", data: Array.from(spec.data as readonly string[]), shape, attributes, fillValue: undefined };
  }
  if (typeof first === "boolean") {
    // As xarray does: int8 marked `dtype: "bool"`, so readers without the convention still see 0/1.
    attributes.dtype = "bool";
    return { dataType: "int8", data: Int8Array.from(spec.data as readonly boolean[], Number), shape, attributes, fillValue: undefined };
  }

  let numbers: Float64Array | Float32Array;
  let dtype = encoding.dtype;
  if (isDateLike(first) || (first === undefined && isTimeUnits(encoding.units))) {
    if (!isTimeUnits(encoding.units)) {
      throw new ZarrError("INVALID_ARGUMENT", 'Dates need time units in the encoding ("units": "days since 1970-01-01")');
    }
    numbers = encodeTimes(spec.data as readonly (Date | DateInput | null)[], encoding.units, encoding.calendar);
    attributes.units = encoding.units;
    if (encoding.calendar !== undefined) attributes.calendar = encoding.calendar;
    dtype ??= numbers.every((v) => Number.isInteger(v)) ? "int64" : "float64";
  } else {
    const values = spec.data as ArrayLike<number>;
    numbers = values instanceof Float32Array ? Float32Array.from(values) : Float64Array.from(values as ArrayLike<number>);
    if (encoding.units !== undefined) attributes.units = encoding.units;
  }

  // Scale and offset, in the precision xarray picks for the values' type.
  if (encoding.scale_factor !== undefined || encoding.add_offset !== undefined) {
    const size = chooseFloatSize({ kind: "float", size: numbers instanceof Float32Array ? 4 : 8 }, encoding.add_offset !== undefined);
    const round = size === 4 ? Math.fround : (x: number) => x;
    const out = size === 4 ? Float32Array.from(numbers) : Float64Array.from(numbers);
    if (encoding.add_offset !== undefined) {
      const o = round(encoding.add_offset);
      for (let i = 0; i < out.length; i++) out[i] = out[i] - o;
      attributes.add_offset = encoding.add_offset;
    }
    if (encoding.scale_factor !== undefined) {
      const s = round(encoding.scale_factor);
      for (let i = 0; i < out.length; i++) out[i] = out[i] / s;
      attributes.scale_factor = encoding.scale_factor;
    }
    numbers = out;
  }
  const fill = encoding._FillValue ?? encoding.missing_value;
  if (encoding.missing_value !== undefined) attributes.missing_value = encoding.missing_value;
  if (fill !== undefined && !Number.isNaN(fill)) {
    for (let i = 0; i < numbers.length; i++) if (Number.isNaN(numbers[i])) numbers[i] = fill;
  }

  dtype ??= numbers instanceof Float32Array ? "float32" : "float64";
  const isInteger = !dtype.startsWith("float");
  const data = castTo(numbers, dtype, isInteger);
  return { dataType: dtype, data, shape, attributes, fillValue: fill };
}

function castTo(numbers: Float64Array | Float32Array, dtype: StorageType, isInteger: boolean): EncodedVariable["data"] {
  if (!isInteger) return dtype === "float32" ? Float32Array.from(numbers) : Float64Array.from(numbers);
  const bits = Number(dtype.replace(/\D/g, ""));
  const signed = dtype.startsWith("int");
  const min = signed ? -(2 ** (bits - 1)) : 0;
  const max = signed ? 2 ** (bits - 1) - 1 : 2 ** bits - 1;
  const rounded = numbers.map((v) => roundHalfEven(v));
  for (let i = 0; i < rounded.length; i++) {
    const v = rounded[i];
    if (!Number.isFinite(v) || v < min || v > max) {
      throw new ZarrError(
        "INVALID_ARGUMENT",
        `Value ${numbers[i]} at index ${i} does not fit ${dtype}${Number.isNaN(v) ? " (a missing value needs a _FillValue)" : ""}`,
      );
    }
  }
  if (bits === 64) {
    const Ctor = signed ? BigInt64Array : BigUint64Array;
    return Ctor.from(Array.from(rounded, (v) => BigInt(v)));
  }
  return CONSTRUCTORS[dtype as keyof typeof CONSTRUCTORS].from(rounded);
}

/** A dataset to write: group attributes and variables by name. */
export interface DatasetSpec {
  attributes?: JsonObject;
  variables: Record<string, VariableSpec>;
}

/** Options of {@link writeDataset}. */
export interface WriteDatasetOptions {
  /** 3 (default) or 2 (what xarray 2023.01 writes). */
  zarrFormat?: 2 | 3;
  /** Where codecs are looked up (default: @zarr/all's full registry). */
  registry?: Registry;
  /** Replace what is at the path. Default false. */
  overwrite?: boolean;
  signal?: AbortSignal;
}

/**
 * Writes a dataset as xarray's `to_zarr` does: a group at `path` with one array per
 * variable, dimension names (`_ARRAY_DIMENSIONS` for v2, `dimension_names` for v3), and
 * values encoded by {@link encodeVariable}. Returns the group and its arrays.
 *
 * @example
 * ```ts
 * await writeDataset(store, "", {
 *   variables: {
 *     time: { dims: ["time"], data: [new Date("2000-01-01")], encoding: { units: "days since 2000-01-01" } },
 *     t: { dims: ["time"], data: [280.5], encoding: { dtype: "int16", scale_factor: 0.1, _FillValue: -1 } },
 *   },
 * });
 * ```
 */
export async function writeDataset(
  store: Store,
  path: string,
  dataset: DatasetSpec,
  options: WriteDatasetOptions = {},
): Promise<{ group: ZarrGroup; arrays: Record<string, ZarrArray> }> {
  const registry = options.registry ?? fullRegistry;
  const v2 = options.zarrFormat === 2;
  const common = { registry, overwrite: options.overwrite, signal: options.signal };
  const group = v2
    ? await createGroupV2(store, path, { ...common, attributes: dataset.attributes ?? {} })
    : await createGroup(store, path, { ...common, attributes: dataset.attributes ?? {} });
  const prefix = path === "" ? "" : `${path.replace(/\/+$/, "")}/`;
  const arrays: Record<string, ZarrArray> = {};
  for (const [name, spec] of Object.entries(dataset.variables)) {
    const encoded = encodeVariable(spec);
    const chunks = spec.encoding?.chunks;
    const attributes: JsonObject = { ...encoded.attributes };
    let array: ZarrArray;
    if (v2) {
      array = await createArrayV2(store, prefix + name, {
        ...common,
        shape: encoded.shape,
        ...(chunks ? { chunks } : {}),
        dataType: encoded.dataType,
        fillValue: encoded.fillValue ?? null,
        dimensionNames: [...spec.dims],
        attributes,
      });
    } else {
      if (encoded.fillValue !== undefined) attributes._FillValue = fillAttribute(encoded.fillValue, encoded.dataType);
      array = await createArray(store, prefix + name, {
        ...common,
        shape: encoded.shape,
        ...(chunks ? { chunkShape: chunks } : {}),
        dataType: encoded.dataType,
        ...(encoded.fillValue !== undefined ? { fillValue: fillScalar(encoded.fillValue, encoded.dataType) } : {}),
        dimensionNames: [...spec.dims],
        attributes,
      });
    }
    await set(array, null, { data: encoded.data, shape: encoded.shape }, { signal: options.signal });
    arrays[name] = array;
  }
  return { group, arrays };
}

function fillAttribute(fill: number, dataType: EncodedVariable["dataType"]): JsonValue {
  return dataType.startsWith("float") ? floatFillValueAttribute(fill) : fill;
}
function fillScalar(fill: number, dataType: EncodedVariable["dataType"]): number | bigint {
  return dataType.endsWith("64") && !dataType.startsWith("float") ? BigInt(fill) : fill;
}
