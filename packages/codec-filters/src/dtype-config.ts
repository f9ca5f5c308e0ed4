/** Reading the NumPy dtype fields of numcodecs configurations (`dtype`, `astype`, …). */
import type { CodecBuildContext, DataType } from "@zarr/spec";
import type { ConfigReader } from "./config.js";
import { parseNumpyDtype } from "./numpy-dtype.js";
import { type NumType, numTypeOf } from "./numeric-type.js";

/** A numeric dtype field: the text as written (kept for `toJSON`) and its type. */
export interface NumericDtype {
  readonly text: string;
  readonly num: NumType;
}

const KIND_NAMES: Record<string, string> = {
  b: "bool",
  i: "signed integer",
  u: "unsigned integer",
  f: "floating-point",
  c: "complex",
};

/**
 * Reads `key` as a NumPy dtype string of one of `kinds` (letters of b, i, u, f, c).
 * `fallback` is used when the key is absent.
 */
export function numericDtype(r: ConfigReader, key: string, kinds: string, fallback?: string): NumericDtype {
  const text = r.string(key, fallback);
  const parsed = parseNumpyDtype(text);
  if (parsed === undefined) r.fail(key, `${JSON.stringify(text)} is not a NumPy data type this codec supports`);
  if (parsed.num === undefined || !kinds.includes(parsed.kind)) {
    const wanted = [...kinds].map((k) => KIND_NAMES[k]).join(" or ");
    r.fail(key, `the codec "${r.codec}" needs a ${wanted} data type, found ${JSON.stringify(text)}`);
  }
  return { text, num: parsed.num };
}

/** The numeric type of the array entering the codec, or a `MetadataError` at `key`. */
export function incomingNumType(r: ConfigReader, key: string, dataType: DataType, kinds: string): NumType {
  const t = numTypeOf(dataType);
  if (t === undefined || !kinds.includes(t.kind)) {
    const wanted = [...kinds].map((k) => KIND_NAMES[k]).join(" or ");
    r.fail(key, `the codec "${r.codec}" needs ${wanted} data, but the array entering it is ${dataType.name}`);
  }
  return t;
}

/**
 * Checks that a `dtype` field names the data type of the array entering the codec
 * (numcodecs reinterprets the chunk's bytes as `dtype`; in Zarr v3 the types must agree,
 * byte order aside).
 */
export function requireSameType(r: ConfigReader, key: string, d: NumericDtype, dataType: DataType): void {
  const t = numTypeOf(dataType);
  if (t !== d.num) {
    r.fail(key, `${JSON.stringify(d.text)} (${d.num.v3}) does not match the data type of the array entering the codec (${dataType.name})`);
  }
}

/** Resolves the Zarr data type of a numeric type through the registry. */
export function resolveNum(context: CodecBuildContext, t: NumType): Promise<DataType> {
  return context.resolveDataType(t.v3);
}
