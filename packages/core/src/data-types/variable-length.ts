/**
 * Variable-length types: `string` (UTF-8 text, JS strings) and `bytes` (alias
 * `variable_length_bytes`, `Uint8Array` values). Elements live in plain JS arrays;
 * they have no fixed binary form, so a `vlen-utf8` / `vlen-bytes` codec serialises them.
 */
import { type DataType, decodeBase64, describeJson, type ExtensionObject, encodeBase64, type JsonPath, type JsonValue, MetadataError } from "@zarr/spec";
import { cannotHold } from "./numeric-parts.js";

/** The `string` data type: variable-length UTF-8 text. Storage: `string[]`. */
export class StringDataType implements DataType<string, string[]> {
  readonly configuration = {};
  readonly kind = "string";
  readonly byteSize = undefined;
  readonly componentSize = 1;
  readonly width = 1;

  constructor(readonly name: string = "string") {}

  allocate(length: number): string[] {
    return new Array<string>(length).fill("");
  }

  fill(target: string[], value: string, start: number, end: number): void {
    target.fill(value, start, end);
  }

  getItem(source: string[], index: number): string {
    return source[index];
  }

  setItem(target: string[], index: number, value: string): void {
    target[index] = value;
  }

  allEqual(source: string[], value: string, start: number, end: number): boolean {
    for (let i = start; i < end; i++) if (source[i] !== value) return false;
    return true;
  }

  coerce(value: unknown): string {
    if (typeof value === "string") return value;
    throw cannotHold(this.name, value, "expected a string");
  }

  /**
   * A JSON string. Numbers are accepted too and turned into their decimal text, as
   * zarr-python does for fill values written by zarr-python 2 (which used `0`).
   */
  parseFillValue(json: JsonValue, path: JsonPath): string {
    if (typeof json === "string") return json;
    if (typeof json === "number" || typeof json === "bigint") return String(json);
    throw new MetadataError(path, `expected a string for a ${this.name} fill value, got ${describeJson(json)}`);
  }

  fillValueToJson(value: string): JsonValue {
    return value;
  }

  toJSON(): string | ExtensionObject {
    return this.name;
  }
}

const EMPTY = new Uint8Array(0);

/**
 * The `bytes` data type (also read as `variable_length_bytes`): variable-length byte
 * strings. Storage: `Uint8Array[]`. `fill` puts the same `Uint8Array` object in every
 * slot, so treat element values as immutable.
 */
export class BytesDataType implements DataType<Uint8Array, Uint8Array[]> {
  readonly configuration = {};
  readonly kind = "bytes";
  readonly byteSize = undefined;
  readonly componentSize = 1;
  readonly width = 1;

  constructor(readonly name: string = "bytes") {}

  allocate(length: number): Uint8Array[] {
    return new Array<Uint8Array>(length).fill(EMPTY);
  }

  fill(target: Uint8Array[], value: Uint8Array, start: number, end: number): void {
    target.fill(value, start, end);
  }

  getItem(source: Uint8Array[], index: number): Uint8Array {
    return source[index];
  }

  setItem(target: Uint8Array[], index: number, value: Uint8Array): void {
    target[index] = value;
  }

  allEqual(source: Uint8Array[], value: Uint8Array, start: number, end: number): boolean {
    const n = value.length;
    for (let i = start; i < end; i++) {
      const s = source[i];
      if (s === value) continue;
      if (s.length !== n) return false;
      for (let j = 0; j < n; j++) if (s[j] !== value[j]) return false;
    }
    return true;
  }

  coerce(value: unknown): Uint8Array {
    if (value instanceof Uint8Array) return value;
    throw cannotHold(this.name, value, "expected a Uint8Array");
  }

  /** A base64 string (what zarr-python 3 writes) or an array of integers 0–255. */
  parseFillValue(json: JsonValue, path: JsonPath): Uint8Array {
    if (typeof json === "string") {
      const bytes = decodeBase64(json);
      if (bytes === undefined) {
        throw new MetadataError(path, `expected base64 text for a ${this.name} fill value, got ${describeJson(json)}`);
      }
      return bytes;
    }
    if (Array.isArray(json)) {
      const out = new Uint8Array(json.length);
      for (let i = 0; i < json.length; i++) {
        const b = json[i];
        if (typeof b !== "number" || !Number.isInteger(b) || b < 0 || b > 255) {
          throw new MetadataError([...path, i], `expected an integer from 0 to 255, got ${describeJson(b)}`);
        }
        out[i] = b;
      }
      return out;
    }
    throw new MetadataError(
      path,
      `expected a base64 string or an array of integers 0–255 for a ${this.name} fill value, got ${describeJson(json)}`,
    );
  }

  fillValueToJson(value: Uint8Array): JsonValue {
    return encodeBase64(value);
  }

  toJSON(): string | ExtensionObject {
    return this.name;
  }
}
