/** `r<N>`: raw bits, N a positive multiple of 8; N/8 bytes per element, scalar a `Uint8Array`. */
import { type DataType, decodeBase64, describeJson, type ExtensionObject, type JsonPath, type JsonValue, MetadataError } from "@zarr/spec";
import { cannotHold, checkByteLength } from "./numeric-parts.js";

/** The `r<N>` data type. Storage: `Uint8Array`, `N/8` slots per element. */
export class RawBitsDataType implements DataType<Uint8Array, Uint8Array> {
  readonly configuration = {};
  readonly kind = "raw";
  readonly componentSize = 1;
  readonly byteSize: number;
  readonly width: number;
  readonly bytesAreMemory = true;
  readonly name: string;

  /** `bytes` per element (N/8). */
  constructor(bytes: number) {
    this.byteSize = bytes;
    this.width = bytes;
    this.name = `r${bytes * 8}`;
  }

  allocate(length: number): Uint8Array {
    return new Uint8Array(length * this.width);
  }

  fill(target: Uint8Array, value: Uint8Array, start: number, end: number): void {
    const w = this.width;
    if (w === 1) {
      target.fill(value[0], start, end);
      return;
    }
    for (let i = start * w, e = end * w; i < e; i += w) target.set(value, i);
  }

  /** A copy of the element's bytes (never a view into the array). */
  getItem(source: Uint8Array, index: number): Uint8Array {
    return source.slice(index * this.width, (index + 1) * this.width);
  }

  setItem(target: Uint8Array, index: number, value: Uint8Array): void {
    target.set(value, index * this.width);
  }

  allEqual(source: Uint8Array, value: Uint8Array, start: number, end: number): boolean {
    const w = this.width;
    for (let i = start * w, e = end * w; i < e; i += w) {
      for (let j = 0; j < w; j++) if (source[i + j] !== value[j]) return false;
    }
    return true;
  }

  coerce(value: unknown): Uint8Array {
    if (value instanceof Uint8Array && value.length === this.width) return value;
    throw cannotHold(this.name, value, `expected a Uint8Array of ${this.width} bytes`);
  }

  /** An array of N/8 integers 0–255 (the spec), or a base64 string of N/8 bytes (zarr-python's raw-bytes form). */
  parseFillValue(json: JsonValue, path: JsonPath): Uint8Array {
    if (Array.isArray(json)) {
      if (json.length !== this.width) {
        throw new MetadataError(path, `expected ${this.width} byte values for an ${this.name} fill value, got ${json.length}`);
      }
      const out = new Uint8Array(this.width);
      for (let i = 0; i < json.length; i++) {
        const b = json[i];
        if (typeof b !== "number" || !Number.isInteger(b) || b < 0 || b > 255) {
          throw new MetadataError([...path, i], `expected an integer from 0 to 255, got ${describeJson(b)}`);
        }
        out[i] = b;
      }
      return out;
    }
    if (typeof json === "string") {
      const bytes = decodeBase64(json);
      if (bytes !== undefined && bytes.length === this.width) return bytes;
    }
    throw new MetadataError(
      path,
      `expected an array of ${this.width} integers 0–255 (or base64 of ${this.width} bytes) for an ${this.name} fill value, got ${describeJson(json)}`,
    );
  }

  fillValueToJson(value: Uint8Array): JsonValue {
    return Array.from(value);
  }

  fromBytes(bytes: Uint8Array, length: number, _littleEndian: boolean): Uint8Array {
    checkByteLength(bytes, length, this.byteSize, this.name);
    return bytes;
  }

  toBytes(data: Uint8Array, _littleEndian: boolean): Uint8Array {
    return data;
  }

  toJSON(): string | ExtensionObject {
    return this.name;
  }
}

/** Largest N accepted for `r<N>` (2^31 bits = 256 MiB per element). */
export const MAX_RAW_BITS = 2 ** 31;

/** Parses the N of a name like `r16`; `undefined` when the name does not have that form. */
export function rawBitsOf(name: string): number | undefined {
  const m = /^r(\d+)$/.exec(name);
  return m === null ? undefined : Number(m[1]);
}
