/**
 * The data type contract. A data type says how one element looks in memory (which
 * array holds the elements), how it looks as bytes (for the `bytes` codec), and how its
 * fill value is written in JSON. Implementations live in @zarr/core (and in third-party
 * packages); codecs only ever see this interface.
 */
import type { JsonPath } from "./errors.js";
import type { ExtensionObject } from "./extension.js";
import type { JsonValue } from "./json.js";

/** Every typed array an element store can be. */
export type TypedArray =
  | Int8Array
  | Uint8Array
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | Float32Array
  | Float64Array
  | BigInt64Array
  | BigUint64Array;

/** A complex number as `[real, imaginary]`. */
export type Complex = readonly [number, number];

/** A record (structured) value: one entry per field. */
export interface StructValue {
  [field: string]: Scalar;
}

/** One element of an array, as a JavaScript value. */
export type Scalar = number | bigint | boolean | string | Uint8Array | Complex | StructValue | JsonValue;

/**
 * The flat in-memory storage of elements. Fixed-size numeric types use a typed array
 * (complex types interleave `[re, im]`, raw `r<N>` types use N/8 bytes per element);
 * variable-length and string types use a plain JavaScript array.
 */
export type DataArray = TypedArray | Scalar[];

/** The family a data type belongs to. */
export type DataTypeKind =
  | "bool"
  | "int"
  | "uint"
  | "float"
  | "complex"
  | "raw"
  | "string"
  | "bytes"
  | "datetime"
  | "timedelta"
  | "struct"
  | "object"
  | "optional";

/**
 * A data type resolved from metadata.
 *
 * Elements live in a flat `DataArray`; element `i` occupies slots
 * `[i * width, (i + 1) * width)` of it.
 */
export interface DataType<S extends Scalar = Scalar, A extends DataArray = DataArray> {
  /** The name as written in metadata (`"int16"`, `"numpy.datetime64"`, ...). */
  readonly name: string;
  /** Configuration as written in metadata; `{}` when the type has none. */
  readonly configuration: { readonly [key: string]: JsonValue };
  /** The family of the type. */
  readonly kind: DataTypeKind;
  /** Bytes per element in the binary representation, or `undefined` when variable. */
  readonly byteSize: number | undefined;
  /** Unit of byte swapping for the `bytes` codec (4 for complex64 and UTF-32; 1 when endianness does not apply). */
  readonly componentSize: number;
  /** Slots of the in-memory array one element occupies. */
  readonly width: number;
  /**
   * True when the little-endian binary representation is byte for byte the in-memory
   * storage (numbers, bool, complex, raw, datetimes): bytes can then be read straight into
   * a result array's memory. False for converted types (float16, UTF-32 strings).
   */
  readonly bytesAreMemory?: boolean;
  /** Allocates storage for `length` elements, every one the type's zero value. */
  allocate(length: number): A;
  /** Sets elements `[start, end)` of `target` to `value`. */
  fill(target: A, value: S, start: number, end: number): void;
  /** Reads element `index`. */
  getItem(source: A, index: number): S;
  /** Writes element `index`. */
  setItem(target: A, index: number, value: S): void;
  /** True when every element in `[start, end)` equals `value` (NaN equals NaN, bit for bit where it matters). */
  allEqual(source: A, value: S, start: number, end: number): boolean;
  /**
   * Turns a user-supplied value (e.g. a JS number for an int64 type) into this type's
   * scalar, or throws `INVALID_ARGUMENT` naming the type and the value.
   */
  coerce(value: unknown): S;
  /** Parses a metadata `fill_value`; throws `MetadataError` at `path` when it does not fit. */
  parseFillValue(json: JsonValue, path: JsonPath): S;
  /** Writes a fill value back to its metadata form. */
  fillValueToJson(value: S): JsonValue;
  /**
   * Decodes `length` elements from their binary representation (fixed-size types only).
   * May return a view of `bytes` when layout and alignment allow; callers must not
   * assume a copy.
   */
  fromBytes?(bytes: Uint8Array, length: number, littleEndian: boolean): A;
  /** Encodes elements to their binary representation (fixed-size types only). May return a view. */
  toBytes?(data: A, littleEndian: boolean): Uint8Array;
  /** The metadata form: a bare name, or `{name, configuration}`. */
  toJSON(): string | ExtensionObject;
}
