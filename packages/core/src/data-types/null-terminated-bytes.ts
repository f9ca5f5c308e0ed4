/**
 * `null_terminated_bytes` (`{"length_bytes": N}`): NumPy's fixed-length byte string `S<N>`
 * (Zarr v2 `|S<N>`), as zarr-python 3 names it. Each element is N bytes; shorter values
 * are padded with NUL bytes and, as NumPy does, read back without trailing NULs.
 * Storage: `Uint8Array`, N slots per element; scalar: a `Uint8Array` of at most N bytes.
 */
import {
  type DataType,
  type DataTypeEntry,decodeBase64, 
  describeJson,
  type ExtensionObject,encodeBase64, 
  type JsonObject,
  type JsonPath,
  type JsonValue,
  MetadataError
} from "@zarr/spec";
import { expectOnlyFields, requireIntegerField } from "./config-fields.js";
import { CORE_PACKAGE, cannotHold, checkByteLength } from "./numeric-parts.js";

function trimNuls(bytes: Uint8Array): Uint8Array {
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === 0) end--;
  return end === bytes.length ? bytes : bytes.subarray(0, end);
}

/** The `null_terminated_bytes` data type. */
export class NullTerminatedBytesDataType implements DataType<Uint8Array, Uint8Array> {
  readonly kind = "bytes";
  readonly componentSize = 1;
  readonly bytesAreMemory = true;
  readonly byteSize: number;
  readonly width: number;
  readonly configuration: { readonly length_bytes: number };

  constructor(
    readonly name: string,
    lengthBytes: number,
  ) {
    this.byteSize = lengthBytes;
    this.width = lengthBytes;
    this.configuration = { length_bytes: lengthBytes };
  }

  allocate(length: number): Uint8Array {
    return new Uint8Array(length * this.width);
  }

  fill(target: Uint8Array, value: Uint8Array, start: number, end: number): void {
    const w = this.width;
    if (w === 0) return;
    const padded = this.padded(value);
    if (w === 1) {
      target.fill(padded[0], start, end);
      return;
    }
    for (let i = start * w, e = end * w; i < e; i += w) target.set(padded, i);
  }

  /** The element's bytes without trailing NULs (a copy). */
  getItem(source: Uint8Array, index: number): Uint8Array {
    const w = this.width;
    return trimNuls(source.subarray(index * w, (index + 1) * w)).slice();
  }

  setItem(target: Uint8Array, index: number, value: Uint8Array): void {
    const w = this.width;
    target.fill(0, index * w, (index + 1) * w);
    target.set(value.subarray(0, w), index * w);
  }

  allEqual(source: Uint8Array, value: Uint8Array, start: number, end: number): boolean {
    const w = this.width;
    const padded = this.padded(value);
    for (let i = start * w, e = end * w; i < e; i += w) {
      for (let j = 0; j < w; j++) if (source[i + j] !== padded[j]) return false;
    }
    return true;
  }

  /** A `Uint8Array` or a string of code points below 256 (Latin-1), at most `length_bytes` long after trailing NULs are dropped. */
  coerce(value: unknown): Uint8Array {
    let bytes: Uint8Array;
    if (value instanceof Uint8Array) bytes = value;
    else if (typeof value === "string") {
      bytes = new Uint8Array(value.length);
      for (let i = 0; i < value.length; i++) {
        const c = value.charCodeAt(i);
        if (c > 255) throw cannotHold(this.name, value, "a character beyond Latin-1 (pass bytes instead)");
        bytes[i] = c;
      }
    } else throw cannotHold(this.name, value, "expected a Uint8Array or a string");
    bytes = trimNuls(bytes);
    if (bytes.length > this.width) throw cannotHold(this.name, value, `longer than ${this.width} bytes`);
    return bytes;
  }

  /** Base64 text (what zarr-python writes) or an array of integers 0–255, at most `length_bytes` long. */
  parseFillValue(json: JsonValue, path: JsonPath): Uint8Array {
    let bytes: Uint8Array | undefined;
    if (typeof json === "string") bytes = decodeBase64(json);
    else if (Array.isArray(json) && json.every((b) => typeof b === "number" && Number.isInteger(b) && b >= 0 && b <= 255)) {
      bytes = Uint8Array.from(json as number[]);
    }
    if (bytes === undefined) {
      throw new MetadataError(path, `expected base64 text or an array of integers 0–255 for a ${this.name} fill value, got ${describeJson(json)}`);
    }
    bytes = trimNuls(bytes);
    if (bytes.length > this.width) throw new MetadataError(path, `the fill value is longer than ${this.width} bytes`);
    return bytes;
  }

  fillValueToJson(value: Uint8Array): JsonValue {
    return encodeBase64(trimNuls(value));
  }

  fromBytes(bytes: Uint8Array, length: number, _littleEndian: boolean): Uint8Array {
    checkByteLength(bytes, length, this.byteSize, this.name);
    return bytes;
  }

  toBytes(data: Uint8Array, _littleEndian: boolean): Uint8Array {
    return data;
  }

  toJSON(): string | ExtensionObject {
    return { name: this.name, configuration: { length_bytes: this.byteSize } };
  }

  private padded(value: Uint8Array): Uint8Array {
    if (value.length === this.width) return value;
    const out = new Uint8Array(this.width);
    out.set(value.subarray(0, this.width));
    return out;
  }
}

/** `null_terminated_bytes` `{"length_bytes": N}`: NumPy's `S<N>`. */
export const nullTerminatedBytesDataType: DataTypeEntry = {
  type: "data_type",
  name: "null_terminated_bytes",
  package: CORE_PACKAGE,
  fromConfig(name: string, configuration: JsonObject, path: JsonPath): DataType {
    expectOnlyFields(name, configuration, ["length_bytes"], path);
    return new NullTerminatedBytesDataType(name, requireIntegerField(configuration, "length_bytes", 0, 2 ** 31, path));
  },
};
