/**
 * `fixed_length_utf32` (`{"length_bytes": N}`, N divisible by 4): NumPy's `U` type.
 * Each element is N/4 UTF-32 code units; shorter strings are padded with NULs, and
 * trailing NULs are stripped when reading, as NumPy does. Storage: `string[]`.
 */
import { type DataType, describeJson, type ExtensionObject, type JsonPath, type JsonValue, MetadataError, ZarrError } from "@zarr/spec";
import { cannotHold, checkByteLength, MACHINE_LITTLE_ENDIAN, swapBytesInPlace, typedFromBytes } from "./numeric-parts.js";

/** Number of code points of `s` (surrogate pairs count once). */
export function codePointLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d < 0xe000) i++;
    }
    n++;
  }
  return n;
}

function stripTrailingNuls(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 0) end--;
  return end === s.length ? s : s.slice(0, end);
}

const CHUNK = 8192; // code units per String.fromCharCode call (argument count limits)

// Keeps a leading U+FEFF (by default TextDecoder would drop it as a byte order mark).
const utf16Decoder = MACHINE_LITTLE_ENDIAN ? new TextDecoder("utf-16le", { ignoreBOM: true }) : undefined;

/** The string of UTF-16 code units (all well-formed: surrogates come in pairs). */
function decodeUtf16(units: Uint16Array): string {
  if (utf16Decoder !== undefined) return utf16Decoder.decode(units);
  let s = "";
  for (let i = 0; i < units.length; i += CHUNK) {
    s += String.fromCharCode.apply(null, units.subarray(i, i + CHUNK) as unknown as number[]);
  }
  return s;
}

/** The `fixed_length_utf32` data type. */
export class FixedLengthUtf32DataType implements DataType<string, string[]> {
  readonly kind = "string";
  readonly componentSize = 4;
  readonly width = 1;
  readonly byteSize: number;
  /** Code points per element. */
  readonly length: number;
  readonly configuration: { readonly length_bytes: number };

  constructor(
    readonly name: string,
    lengthBytes: number,
  ) {
    this.byteSize = lengthBytes;
    this.length = lengthBytes / 4;
    this.configuration = { length_bytes: lengthBytes };
  }

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

  /** Strings of at most `length_bytes / 4` code points (trailing NULs dropped). */
  coerce(value: unknown): string {
    if (typeof value !== "string") throw cannotHold(this.name, value, "expected a string");
    const s = stripTrailingNuls(value);
    if (codePointLength(s) > this.length) {
      throw cannotHold(this.name, value, `longer than ${this.length} code points`);
    }
    return s;
  }

  parseFillValue(json: JsonValue, path: JsonPath): string {
    if (typeof json !== "string") {
      throw new MetadataError(path, `expected a string for a ${this.name} fill value, got ${describeJson(json)}`);
    }
    const s = stripTrailingNuls(json);
    if (codePointLength(s) > this.length) {
      throw new MetadataError(path, `the fill value is longer than ${this.length} code points`);
    }
    return s;
  }

  fillValueToJson(value: string): JsonValue {
    return value;
  }

  /** Decodes UTF-32 in either byte order; code points that are not Unicode scalar values become U+FFFD. */
  fromBytes(bytes: Uint8Array, length: number, littleEndian: boolean): string[] {
    checkByteLength(bytes, length, this.byteSize, this.name);
    const L = this.length;
    const cps = typedFromBytes(Uint32Array, bytes, length * L, littleEndian);
    // Transcode every element into one UTF-16 buffer, decode it with one native call,
    // and cut the elements out of the result (cheap string slices).
    const units = new Uint16Array(2 * cps.length);
    const ends = new Uint32Array(length);
    let u = 0;
    for (let e = 0; e < length; e++) {
      const base = e * L;
      let end = base + L;
      while (end > base && cps[end - 1] === 0) end--; // NumPy strips trailing NULs
      for (let i = base; i < end; i++) {
        let c = cps[i];
        if (c > 0x10ffff || (c >= 0xd800 && c < 0xe000)) c = 0xfffd;
        if (c < 0x10000) {
          units[u++] = c;
        } else {
          c -= 0x10000;
          units[u++] = 0xd800 | (c >>> 10);
          units[u++] = 0xdc00 | (c & 0x3ff);
        }
      }
      ends[e] = u;
    }
    const text = decodeUtf16(units.subarray(0, u));
    const out = new Array<string>(length);
    for (let e = 0, start = 0; e < length; e++) {
      out[e] = text.slice(start, ends[e]);
      start = ends[e];
    }
    return out;
  }

  /**
   * Encodes as UTF-32, NUL-padded. A lone surrogate is written as U+FFFD; a string
   * longer than `length_bytes / 4` code points throws `INVALID_ARGUMENT`.
   */
  toBytes(data: string[], littleEndian: boolean): Uint8Array {
    const L = this.length;
    const out = new Uint32Array(data.length * L);
    for (let e = 0; e < data.length; e++) {
      const s = data[e];
      if (typeof s !== "string") throw cannotHold(this.name, s, "expected a string");
      let o = e * L;
      const limit = o + L;
      for (let i = 0; i < s.length; i++) {
        let c = s.charCodeAt(i);
        if (c >= 0xd800 && c < 0xe000) {
          const d = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
          if (c < 0xdc00 && d >= 0xdc00 && d < 0xe000) {
            c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
            i++;
          } else {
            c = 0xfffd;
          }
        }
        if (o >= limit) {
          if (c === 0) continue; // trailing NULs beyond the length are padding anyway
          throw new ZarrError(
            "INVALID_ARGUMENT",
            `Cannot encode the string at index ${e} as ${this.name}: longer than ${L} code points`,
          );
        }
        out[o++] = c;
      }
    }
    if (littleEndian !== MACHINE_LITTLE_ENDIAN) swapBytesInPlace(out.buffer, 0, out.byteLength, 4);
    return new Uint8Array(out.buffer);
  }

  toJSON(): string | ExtensionObject {
    return { name: this.name, configuration: { length_bytes: this.byteSize } };
  }
}
