/** `bool`: one byte per element, 0 or 1, read as a JavaScript boolean. */
import { type DataType, describeJson, type ExtensionObject, type JsonPath, type JsonValue, MetadataError } from "@zarr/spec";
import { cannotHold, checkByteLength } from "./numeric-parts.js";

/** The `bool` data type. Storage: `Uint8Array` of 0/1 (any non-zero byte reads as true). */
export class BoolDataType implements DataType<boolean, Uint8Array> {
  readonly configuration = {};
  readonly kind = "bool";
  readonly byteSize = 1;
  readonly componentSize = 1;
  readonly width = 1;
  readonly bytesAreMemory = true;

  constructor(readonly name: string = "bool") {}

  allocate(length: number): Uint8Array {
    return new Uint8Array(length);
  }

  fill(target: Uint8Array, value: boolean, start: number, end: number): void {
    target.fill(value ? 1 : 0, start, end);
  }

  getItem(source: Uint8Array, index: number): boolean {
    return source[index] !== 0;
  }

  setItem(target: Uint8Array, index: number, value: boolean): void {
    target[index] = value ? 1 : 0;
  }

  allEqual(source: Uint8Array, value: boolean, start: number, end: number): boolean {
    if (value) {
      for (let i = start; i < end; i++) if (source[i] === 0) return false;
    } else {
      for (let i = start; i < end; i++) if (source[i] !== 0) return false;
    }
    return true;
  }

  coerce(value: unknown): boolean {
    if (typeof value === "boolean") return value;
    if (value === 0 || value === 1) return value === 1;
    throw cannotHold(this.name, value, "expected true, false, 0 or 1");
  }

  parseFillValue(json: JsonValue, path: JsonPath): boolean {
    if (typeof json === "boolean") return json;
    throw new MetadataError(path, `expected true or false for a bool fill value, got ${describeJson(json)}`);
  }

  fillValueToJson(value: boolean): JsonValue {
    return value;
  }

  /** Returns `bytes` itself (checked for length): byte order does not apply. */
  fromBytes(bytes: Uint8Array, length: number, _littleEndian: boolean): Uint8Array {
    checkByteLength(bytes, length, 1, this.name);
    return bytes;
  }

  toBytes(data: Uint8Array, _littleEndian: boolean): Uint8Array {
    return data;
  }

  toJSON(): string | ExtensionObject {
    return this.name;
  }
}
