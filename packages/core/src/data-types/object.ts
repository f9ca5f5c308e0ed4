/**
 * `object`: elements that are arbitrary JSON values (strings, numbers, booleans, null,
 * lists, objects), as NumPy object arrays hold them in Zarr v2 arrays encoded with
 * numcodecs' `json2` or `msgpack2`. Not part of the Zarr v3 specification: a @zarr
 * extension so such arrays can be read, written and converted. Serialised only by codecs
 * that accept kind `"object"` (`numcodecs.json2`, `numcodecs.msgpack2`).
 * Storage: a plain JavaScript array; scalar: the value itself (treat it as immutable:
 * `fill` puts the same value object in every slot).
 */
import {
  type DataType,
  type DataTypeEntry,
  type ExtensionObject,
  type JsonObject,
  type JsonPath,
  type JsonValue,
  type Scalar,
  ZarrError,
} from "@zarr/spec";
import { CORE_PACKAGE, cannotHold, expectNoConfiguration } from "./numeric-parts.js";

/** Deep equality of JSON-like values (numbers by `Object.is`, so NaN equals NaN). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    if (!(a instanceof Uint8Array && b instanceof Uint8Array) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameValue(a[i], bb[i])) return false;
    return true;
  }
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if (!Object.hasOwn(b, k) || !sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

/** The `object` data type. */
export class ObjectDataType implements DataType<Scalar, Scalar[]> {
  readonly configuration = {};
  readonly kind = "object";
  readonly byteSize = undefined;
  readonly componentSize = 1;
  readonly width = 1;

  constructor(readonly name: string = "object") {}

  /** Every element `null`. */
  allocate(length: number): Scalar[] {
    return new Array<Scalar>(length).fill(null);
  }

  fill(target: Scalar[], value: Scalar, start: number, end: number): void {
    target.fill(value, start, end);
  }

  getItem(source: Scalar[], index: number): Scalar {
    return source[index];
  }

  setItem(target: Scalar[], index: number, value: Scalar): void {
    target[index] = value;
  }

  allEqual(source: Scalar[], value: Scalar, start: number, end: number): boolean {
    for (let i = start; i < end; i++) if (!sameValue(source[i], value)) return false;
    return true;
  }

  /** Any value except `undefined`, functions and symbols. */
  coerce(value: unknown): Scalar {
    if (value === undefined || typeof value === "function" || typeof value === "symbol") {
      throw cannotHold(this.name, value, "expected a JSON-like value");
    }
    return value as Scalar;
  }

  /** Any JSON value, kept as it is (zarr-python 2 writes `0` or `null` for object arrays). */
  parseFillValue(json: JsonValue, _path: JsonPath): Scalar {
    return json;
  }

  fillValueToJson(value: Scalar): JsonValue {
    if (value instanceof Uint8Array) throw new ZarrError("INVALID_ARGUMENT", "A fill value of an object array cannot be bytes");
    return value as JsonValue;
  }

  toJSON(): string | ExtensionObject {
    return this.name;
  }
}

const objectInstance = new ObjectDataType();

/** `object`: JSON values (a @zarr extension for Zarr v2 object arrays). */
export const objectDataType: DataTypeEntry = {
  type: "data_type",
  name: "object",
  package: CORE_PACKAGE,
  fromConfig(name: string, configuration: JsonObject, path: JsonPath): DataType {
    expectNoConfiguration(name, configuration, path);
    return objectInstance;
  },
};
