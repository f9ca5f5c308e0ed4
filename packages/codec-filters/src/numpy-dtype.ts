/**
 * NumPy data type strings as numcodecs configurations carry them (`"<i4"`, `"|u1"`,
 * `"int32"`, `">f8"`, `"float64"`, `"|O"`, `"<U5"`), mapped onto Zarr v3 data types.
 * Byte order is dropped: inside a Zarr v3 codec chain arrays live in memory, and the
 * `bytes` codec alone decides the byte order on disk.
 */
import { NUM, type NumType } from "./numeric-type.js";

/** A parsed NumPy dtype. */
export interface NumpyDtype {
  /** The string as written. */
  readonly text: string;
  /** NumPy kind: b, i, u, f, c (numeric), O (object), U (unicode), S (bytes), M, m (datetimes). */
  readonly kind: "b" | "i" | "u" | "f" | "c" | "O" | "U" | "S" | "M" | "m";
  /** The numeric type, for numeric kinds. */
  readonly num: NumType | undefined;
  /** Characters of a `U<n>` type (0 when unsized). */
  readonly chars: number;
}

// Names and one-letter codes NumPy accepts (on 64-bit Linux, where `int`/`long` are 64-bit).
const NAMED: Record<string, NumType> = {
  bool: NUM.b1,
  bool_: NUM.b1,
  bool8: NUM.b1,
  "?": NUM.b1,
  int8: NUM.i1,
  byte: NUM.i1,
  b: NUM.i1,
  uint8: NUM.u1,
  ubyte: NUM.u1,
  B: NUM.u1,
  int16: NUM.i2,
  short: NUM.i2,
  h: NUM.i2,
  uint16: NUM.u2,
  ushort: NUM.u2,
  H: NUM.u2,
  int32: NUM.i4,
  intc: NUM.i4,
  i: NUM.i4,
  uint32: NUM.u4,
  uintc: NUM.u4,
  I: NUM.u4,
  int64: NUM.i8,
  int: NUM.i8,
  int_: NUM.i8,
  long: NUM.i8,
  longlong: NUM.i8,
  intp: NUM.i8,
  l: NUM.i8,
  q: NUM.i8,
  p: NUM.i8,
  uint64: NUM.u8,
  uint: NUM.u8,
  ulong: NUM.u8,
  ulonglong: NUM.u8,
  uintp: NUM.u8,
  L: NUM.u8,
  Q: NUM.u8,
  P: NUM.u8,
  float16: NUM.f2,
  half: NUM.f2,
  e: NUM.f2,
  float32: NUM.f4,
  single: NUM.f4,
  f: NUM.f4,
  float64: NUM.f8,
  float: NUM.f8,
  float_: NUM.f8,
  double: NUM.f8,
  d: NUM.f8,
  complex64: NUM.c8,
  csingle: NUM.c8,
  F: NUM.c8,
  complex128: NUM.c16,
  complex: NUM.c16,
  complex_: NUM.c16,
  cdouble: NUM.c16,
  D: NUM.c16,
};

// Kind letter + item size, as in "<i4" (the form `dtype.str` writes).
const SIZED: Record<string, NumType> = {
  b1: NUM.b1,
  i1: NUM.i1,
  i2: NUM.i2,
  i4: NUM.i4,
  i8: NUM.i8,
  u1: NUM.u1,
  u2: NUM.u2,
  u4: NUM.u4,
  u8: NUM.u8,
  f2: NUM.f2,
  f4: NUM.f4,
  f8: NUM.f8,
  c8: NUM.c8,
  c16: NUM.c16,
};

const numeric = (text: string, num: NumType): NumpyDtype => ({ text, kind: num.kind, num, chars: 0 });

/** Parses a NumPy dtype string; `undefined` when it is not one this package understands. */
export function parseNumpyDtype(text: string): NumpyDtype | undefined {
  const named = Object.hasOwn(NAMED, text) ? NAMED[text] : undefined;
  if (named !== undefined) return numeric(text, named);
  if (text === "object" || text === "object_" || text === "O" || text === "|O" || text === "O8") {
    return { text, kind: "O", num: undefined, chars: 0 };
  }
  if (text === "str" || text === "unicode" || text === "str_" || text === "unicode_") {
    return { text, kind: "U", num: undefined, chars: 0 };
  }
  const m = /^([<>=|]?)([a-zA-Z?])(\d*)(\[\w+\])?$/.exec(text);
  if (m === null) return undefined;
  const [, , letter, digits, unit] = m;
  if (unit !== undefined) {
    return (letter === "M" || letter === "m") && digits === "8" ? { text, kind: letter, num: undefined, chars: 0 } : undefined;
  }
  if (letter === "U") {
    return { text, kind: "U", num: undefined, chars: digits === "" ? 0 : Number(digits) };
  }
  if (letter === "S" || letter === "a") return { text, kind: "S", num: undefined, chars: digits === "" ? 0 : Number(digits) };
  if (letter === "O") return digits === "" || digits === "8" ? { text, kind: "O", num: undefined, chars: 0 } : undefined;
  if (digits === "") {
    const single = Object.hasOwn(NAMED, letter) && letter.length === 1 ? NAMED[letter] : undefined;
    return single === undefined ? undefined : numeric(text, single);
  }
  const sized = Object.hasOwn(SIZED, letter + digits) ? SIZED[letter + digits] : undefined;
  return sized === undefined ? undefined : numeric(text, sized);
}

/** NumPy's `dtype.str` for a numeric type, little endian (`"<i4"`, `"|u1"`, `"|b1"`). */
export function numpyStr(t: NumType): string {
  return t.size === 1 ? `|${t.code}` : `<${t.code}`;
}
