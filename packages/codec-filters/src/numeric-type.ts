/**
 * The fixed-size numeric types the filters compute with, named by their NumPy type codes,
 * and how they map onto the in-memory arrays of @zarr data types:
 * bool → Uint8Array (0/1), int8…uint32 → the matching typed array, int64/uint64 →
 * BigInt64Array/BigUint64Array, float16 → Float32Array holding float16 values, float32 →
 * Float32Array, float64 → Float64Array, complex64/complex128 → Float32Array/Float64Array
 * with interleaved (re, im).
 */
import type { DataType, TypedArray } from "@zarr/spec";

/** NumPy type code of a numeric type. */
export type NumCode = "b1" | "i1" | "i2" | "i4" | "i8" | "u1" | "u2" | "u4" | "u8" | "f2" | "f4" | "f8" | "c8" | "c16";

/** A numeric type: NumPy kind letter and item size in bytes. */
export interface NumType {
  readonly code: NumCode;
  readonly kind: "b" | "i" | "u" | "f" | "c";
  /** Item size in bytes (complex: both components). */
  readonly size: number;
  /** The Zarr v3 data type name. */
  readonly v3: string;
}

const make = (code: NumCode, kind: NumType["kind"], size: number, v3: string): NumType => ({ code, kind, size, v3 });

/** Every numeric type by code. */
export const NUM: Readonly<Record<NumCode, NumType>> = {
  b1: make("b1", "b", 1, "bool"),
  i1: make("i1", "i", 1, "int8"),
  i2: make("i2", "i", 2, "int16"),
  i4: make("i4", "i", 4, "int32"),
  i8: make("i8", "i", 8, "int64"),
  u1: make("u1", "u", 1, "uint8"),
  u2: make("u2", "u", 2, "uint16"),
  u4: make("u4", "u", 4, "uint32"),
  u8: make("u8", "u", 8, "uint64"),
  f2: make("f2", "f", 2, "float16"),
  f4: make("f4", "f", 4, "float32"),
  f8: make("f8", "f", 8, "float64"),
  c8: make("c8", "c", 8, "complex64"),
  c16: make("c16", "c", 16, "complex128"),
};

/**
 * The numeric type a data type is held as, from its kind and size (so third-party data
 * types of the same kinds work too). `undefined` for strings, datetimes, raw bits, ….
 */
export function numTypeOf(dataType: DataType): NumType | undefined {
  const size = dataType.byteSize;
  switch (dataType.kind) {
    case "bool":
      return NUM.b1;
    case "int":
      return size === 1 ? NUM.i1 : size === 2 ? NUM.i2 : size === 4 ? NUM.i4 : size === 8 ? NUM.i8 : undefined;
    case "uint":
      return size === 1 ? NUM.u1 : size === 2 ? NUM.u2 : size === 4 ? NUM.u4 : size === 8 ? NUM.u8 : undefined;
    case "float":
      return size === 2 ? NUM.f2 : size === 4 ? NUM.f4 : size === 8 ? NUM.f8 : undefined;
    case "complex":
      return size === 8 ? NUM.c8 : size === 16 ? NUM.c16 : undefined;
    default:
      return undefined;
  }
}

/** True when elements are held as bigints (int64, uint64). */
export function isBigIntType(t: NumType): boolean {
  return t.size === 8 && (t.kind === "i" || t.kind === "u");
}

/** Slots per element in memory (2 for complex). */
export function slotsOf(t: NumType): number {
  return t.kind === "c" ? 2 : 1;
}

/** Allocates zeroed storage for `n` elements of `t`. */
export function allocateNum(t: NumType, n: number): TypedArray {
  switch (t.code) {
    case "b1":
    case "u1":
      return new Uint8Array(n);
    case "i1":
      return new Int8Array(n);
    case "i2":
      return new Int16Array(n);
    case "u2":
      return new Uint16Array(n);
    case "i4":
      return new Int32Array(n);
    case "u4":
      return new Uint32Array(n);
    case "i8":
      return new BigInt64Array(n);
    case "u8":
      return new BigUint64Array(n);
    case "f2":
    case "f4":
      return new Float32Array(n);
    case "f8":
      return new Float64Array(n);
    case "c8":
      return new Float32Array(2 * n);
    case "c16":
      return new Float64Array(2 * n);
  }
}

// NumPy's type promotion (np.promote_types) for the numeric types, as a table of the
// smallest type both can be cast to safely.
const ORDER: NumCode[] = ["b1", "i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8", "f2", "f4", "f8", "c8", "c16"];

function promoteIntegers(a: NumType, b: NumType): NumType {
  if (a.kind === b.kind) return a.size >= b.size ? a : b;
  const s = a.kind === "i" ? a : b;
  const u = a.kind === "i" ? b : a;
  if (s.size > u.size) return s;
  // A signed type big enough for the unsigned one; uint64 has none, so NumPy uses float64.
  if (u.size === 8) return NUM.f8;
  return u.size === 4 ? NUM.i8 : u.size === 2 ? NUM.i4 : NUM.i2;
}

/** The float type that holds every value of the integer type `t` as NumPy sees it. */
function floatFor(t: NumType): NumType {
  return t.size <= 1 ? NUM.f2 : t.size === 2 ? NUM.f4 : NUM.f8;
}

/** `np.promote_types(a, b)` for numeric types. */
export function promoteTypes(a: NumType, b: NumType): NumType {
  if (a === b) return a;
  if (a.kind === "b") return b;
  if (b.kind === "b") return a;
  const aInt = a.kind === "i" || a.kind === "u";
  const bInt = b.kind === "i" || b.kind === "u";
  if (aInt && bInt) return promoteIntegers(a, b);
  if (aInt || bInt) {
    const int = aInt ? a : b;
    const other = aInt ? b : a;
    const f = floatFor(int);
    if (other.kind === "f") return f.size >= other.size ? f : other;
    // complex: components must hold the integer's float type
    return f.size === 8 || other.size === 16 ? NUM.c16 : NUM.c8;
  }
  // float/complex mixtures
  if (a.kind === "f" && b.kind === "f") return a.size >= b.size ? a : b;
  if (a.kind === "c" && b.kind === "c") return a.size >= b.size ? a : b;
  const c = a.kind === "c" ? a : b;
  const f = a.kind === "c" ? b : a;
  return f.size === 8 || c.size === 16 ? NUM.c16 : NUM.c8;
}

/** Position in NumPy's kind ordering (bool < integer < float < complex). */
export function kindCategory(t: NumType): number {
  return t.kind === "b" ? 0 : t.kind === "i" || t.kind === "u" ? 1 : t.kind === "f" ? 2 : 3;
}

/** All numeric types, in NumPy's order. */
export const ALL_NUM_TYPES: readonly NumType[] = ORDER.map((c) => NUM[c]);
