/**
 * Types that follow an array's data type name: the storage array `get` returns, the
 * scalar a `DataType` reads and the element `set` accepts, per built-in data type (see the
 * table in data-types/index.ts), so `ZarrArray<"float32">` reads as a `Float32Array`
 * without a cast and refuses an `Int32Array` or strings when written.
 * Names this map does not know (third-party data types, or an array not narrowed) fall
 * back to the general `DataArray`/`Scalar`.
 */
import type { Complex, DataArray, DataType, Scalar, StructValue } from "@zarr/spec";

/** A numeric type of up to 32 bits (float16 held as float32): read as numbers, written from numbers or bigints. */
type NumberElements<A> = { array: A; scalar: number; input: number | bigint };
/** A 64-bit integer type: read as exact bigints, written from bigints or integer numbers. */
type BigIntElements<A> = { array: A; scalar: bigint; input: bigint | number };
/** A complex type, interleaved `[re, im]` (two slots per element): written from `[re, im]` or a real number. */
type ComplexElements<A> = { array: A; scalar: Complex; input: Complex | number };
/** A NumPy datetime or timedelta: int64 counts of the unit (NaT is -2^63), written from integers or `"NaT"`. */
type TimeElements = { array: BigInt64Array; scalar: bigint; input: bigint | number | "NaT" };
/** A type held as one JavaScript value per element in a plain array, and written from such values. */
type ListElements<T> = { array: T[]; scalar: T; input: T };

/**
 * For each built-in data type name (aliases included): the storage array `get` returns
 * (`array`), one element as a JavaScript value (`scalar`), and one element as `set`
 * accepts it (`input`: what the data type's `coerce` converts, e.g. a `number` or a
 * `bigint` for an int64). Exactly what the data types of @zarr/core allocate, read and
 * accept (checked against them by core's data-type-map test).
 */
export interface DataTypeMap {
  /** 0/1 bytes, not booleans; `dataType.getItem` reads an element as a `boolean`. */
  bool: { array: Uint8Array; scalar: boolean; input: boolean | 0 | 1 };
  int8: NumberElements<Int8Array>;
  int16: NumberElements<Int16Array>;
  int32: NumberElements<Int32Array>;
  int64: BigIntElements<BigInt64Array>;
  uint8: NumberElements<Uint8Array>;
  uint16: NumberElements<Uint16Array>;
  uint32: NumberElements<Uint32Array>;
  uint64: BigIntElements<BigUint64Array>;
  /** Held as float32 (Node 20 has no `Float16Array`; every float16 is exact as a float32). */
  float16: NumberElements<Float32Array>;
  float32: NumberElements<Float32Array>;
  float64: NumberElements<Float64Array>;
  /** Interleaved `[re, im]`: two slots per element. */
  complex64: ComplexElements<Float32Array>;
  /** Interleaved `[re, im]`: two slots per element. */
  complex128: ComplexElements<Float64Array>;
  string: ListElements<string>;
  bytes: ListElements<Uint8Array>;
  variable_length_bytes: ListElements<Uint8Array>;
  /** Trailing NULs stripped, as NumPy does. */
  fixed_length_utf32: ListElements<string>;
  /** int64 counts of the unit; NaT is -2^63. */
  "numpy.datetime64": TimeElements;
  datetime64: TimeElements;
  "numpy.timedelta64": TimeElements;
  timedelta64: TimeElements;
  /** One record object per element (Zarr v2 structured dtypes). */
  struct: ListElements<StructValue>;
  structured: ListElements<StructValue>;
  /** `length_bytes` bytes per element, NUL-padded (Zarr v2 `|S<n>`). */
  null_terminated_bytes: { array: Uint8Array; scalar: Uint8Array; input: Uint8Array | string };
  /** Zarr v2 `|O` object arrays: whatever the object codec decoded. */
  object: ListElements<Scalar>;
  /**
   * zarrs' nullable values: the inner type's scalar (`number`, `bigint` for 64-bit
   * integers, `boolean` for `bool`) or `null` where the element is missing. Registered by
   * `optionalEntries` of `@zarr/core/extensions` (and @zarr/all).
   */
  optional: ListElements<number | bigint | boolean | null>;
}

/** `r8`, `r16`, …: raw bits, N/8 bytes per element in a `Uint8Array`. */
export type RawBitsName = `r${number}`;

/** The name of a built-in data type, e.g. `"float32"`, `"numpy.datetime64"`, `"r16"`. */
export type DataTypeName = keyof DataTypeMap | RawBitsName;

/**
 * The storage array of data type `N`: `ArrayOf<"float32">` is `Float32Array`,
 * `ArrayOf<"string">` is `string[]`; a name not in {@link DataTypeMap} (or `string`
 * itself) gives `DataArray`. A union of names gives the union of their arrays.
 */
export type ArrayOf<N extends string> = N extends keyof DataTypeMap
  ? DataTypeMap[N]["array"]
  : N extends RawBitsName
    ? Uint8Array
    : DataArray;

/** One element of data type `N` as a JavaScript value (`ScalarOf<"int64">` is `bigint`); `Scalar` for unknown names. */
export type ScalarOf<N extends string> = N extends keyof DataTypeMap
  ? DataTypeMap[N]["scalar"]
  : N extends RawBitsName
    ? Uint8Array
    : Scalar;

/**
 * One element of data type `N` as `set` accepts it (`InputOf<"int64">` is
 * `bigint | number`, `InputOf<"bool">` is `boolean | 0 | 1`); `Scalar` for unknown names.
 */
export type InputOf<N extends string> = N extends keyof DataTypeMap
  ? DataTypeMap[N]["input"]
  : N extends RawBitsName
    ? Uint8Array
    : Scalar;

/** The resolved `DataType` of an array whose data type is named `N`. */
export type DataTypeOf<N extends string> = DataType<ScalarOf<N>, ArrayOf<N>>;

/** Names read under another name: each alias and the name it stands for. */
const ALIASES: Readonly<Record<string, string>> = {
  variable_length_bytes: "bytes",
  datetime64: "numpy.datetime64",
  timedelta64: "numpy.timedelta64",
  structured: "struct",
};

/**
 * True when data type names `a` and `b` name the same data type: equal, or one an alias of
 * the other (`"datetime64"` and `"numpy.datetime64"`). A data type keeps the name it was
 * read under, so a guard must accept both.
 */
export function sameDataTypeName(a: string, b: string): boolean {
  return a === b || (ALIASES[a] ?? a) === (ALIASES[b] ?? b);
}
