/**
 * Reading a variable's values decoded as xarray decodes them: unpacked and masked numbers,
 * times as dates, strings and bytes as strings.
 */
import { get, type Selection } from "@zarr/core";
import { type DataType, type JsonValue, ZarrError } from "@zarr/spec";
import type { CFCalendar } from "./calendars.js";
import { normalizeCalendar } from "./calendars.js";
import type { Variable } from "./dataset.js";
import { type NumericType, unpackNumbers } from "./mask-scale.js";
import { type CFDateTime, decodeTimes, isTimeUnits } from "./times.js";

/** Decoded values, in C order, by what they hold. */
export type DecodedArray =
  | {
      kind: "number";
      /** NumPy's name of the values' type (`float32`, `float64`, or the stored type when nothing applied). */
      dtype: string;
      data: ArrayLike<number | bigint>;
      shape: number[];
    }
  | { kind: "datetime"; calendar: CFCalendar; data: (Date | null)[]; shape: number[] }
  | { kind: "cftime"; calendar: CFCalendar; data: (CFDateTime | null)[]; shape: number[] }
  | { kind: "string"; data: (string | null)[]; shape: number[] }
  /** Zarr `bool` arrays, and booleans xarray stored as integers with `dtype: "bool"`. */
  | { kind: "bool"; data: boolean[]; shape: number[] }
  | { kind: "other"; dtype: string; data: ArrayLike<unknown>; shape: number[] };

/** Options of {@link getDecoded}. */
export interface GetDecodedOptions {
  /** Apply `_FillValue`/`missing_value` and `scale_factor`/`add_offset` (default true, as xarray's `mask_and_scale`). */
  maskAndScale?: boolean;
  /** Decode `<unit> since <date>` values to dates (default true, as xarray's `decode_times`). */
  decodeTimes?: boolean;
  signal?: AbortSignal;
}

const textDecoder = new TextDecoder();

function numericType(dataType: DataType): NumericType | undefined {
  if (dataType.kind !== "int" && dataType.kind !== "uint" && dataType.kind !== "float") return undefined;
  return { kind: dataType.kind, size: dataType.byteSize ?? 8 };
}

function dtypeName(type: NumericType): string {
  return `${type.kind}${type.size * 8}`;
}

function decodeStrings(dataType: DataType, data: unknown, length: number, fill: JsonValue | undefined): (string | null)[] {
  const out: (string | null)[] = new Array(length);
  for (let i = 0; i < length; i++) {
    const item = dataType.getItem(data as never, i) as unknown;
    const text = item instanceof Uint8Array ? textDecoder.decode(item) : String(item);
    out[i] = typeof fill === "string" && text === fill ? null : text;
  }
  return out;
}

/**
 * Reads `selection` of a variable (everything by default) and decodes it as xarray does:
 * `_Unsigned`, `_FillValue`/`missing_value` → NaN and `scale_factor`/`add_offset` with
 * xarray's choice of float32 or float64 (see the package README), CF times to `Date`s or,
 * for calendars a `Date` cannot name, to date parts, strings or bytes (`S`, `U`,
 * variable-length) to strings, and integers marked `dtype: "bool"` to booleans.
 *
 * @example
 * ```ts
 * const ds = await openDataset(store);
 * const t = await getDecoded(ds.variables.t2m, [0, slice(0, 10)]);
 * if (t.kind === "number") console.log(t.dtype, t.data);
 * ```
 */
export async function getDecoded(variable: Variable, selection: Selection | null = null, options: GetDecodedOptions = {}): Promise<DecodedArray> {
  const { array, encoding } = variable;
  const raw = await get(array, selection, { signal: options.signal });
  const shape = [...raw.shape];
  const length = shape.reduce((a, b) => a * b, 1);
  const { dataType } = array;
  if (dataType.kind === "string" || dataType.kind === "bytes") {
    const fill = options.maskAndScale === false ? undefined : encoding._FillValue;
    return { kind: "string", data: decodeStrings(dataType, raw.data, length, fill), shape };
  }
  if (dataType.kind === "bool") return { kind: "bool", data: Array.from(raw.data as Uint8Array, (v) => v !== 0), shape };
  const type = numericType(dataType);
  if (type === undefined) return { kind: "other", dtype: dataType.name, data: raw.data, shape };
  return naming(array.path, () => {
    let numbers: { data: ArrayLike<number | bigint>; type: NumericType } = { data: raw.data as ArrayLike<number | bigint>, type };
    if (options.maskAndScale !== false) numbers = unpackNumbers(numbers.data, type, encoding);
    if (options.decodeTimes !== false && isTimeUnits(encoding.units)) {
      const calendar = typeof encoding.calendar === "string" ? encoding.calendar : undefined;
      const times = decodeTimes(numbers.data, encoding.units, calendar);
      return { ...times, calendar: normalizeCalendar(calendar), shape } as DecodedArray;
    }
    if (encoding.dtype === "bool") return { kind: "bool", data: Array.from(numbers.data, (v) => Number(v) !== 0), shape };
    return { kind: "number", dtype: dtypeName(numbers.type), data: numbers.data, shape };
  });
}

/** Runs `decode`, adding the variable to the message of a `ZarrError` it throws. */
function naming<T>(path: string, decode: () => T): T {
  try {
    return decode();
  } catch (error) {
    if (error instanceof ZarrError && error.key === undefined) {
      throw new ZarrError(error.code, `Cannot decode "${path}": ${error.message}`, { key: path, cause: error });
    }
    throw error;
  }
}
