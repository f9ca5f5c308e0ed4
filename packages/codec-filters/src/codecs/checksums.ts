/**
 * The numcodecs 32-bit checksum codecs (bytes→bytes). Each adds a 4-byte little-endian
 * checksum and verifies it when decoding (`CHECKSUM_MISMATCH` naming the chunk):
 *
 * - `numcodecs.crc32`, `numcodecs.adler32` `{location?}`: zlib's CRC-32 / Adler-32,
 *   before the data by default (numcodecs 0.11 knows only that layout; newer numcodecs
 *   takes `location: "start" | "end"`).
 * - `numcodecs.fletcher32`: HDF5's Fletcher-32, after the data.
 * - `numcodecs.jenkins_lookup3` `{initval?, prefix?}`: lookup3 `hashlittle` seeded with
 *   `initval` over `prefix` + data, after the data.
 */
import {
  adler32,
  type BytesToBytesCodec,
  type CodecCallContext,
  type CodecEntry,
  type ExtensionObject,
  type JsonObject,
  type JsonValue,
  ZarrError,
} from "@zarr/spec";
import { crc32 } from "../checksums/crc32.js";
import { fletcher32 } from "../checksums/fletcher32.js";
import { lookup3 } from "../checksums/lookup3.js";
import { codecFailed } from "../chunk.js";
import { ConfigReader } from "../config.js";

const SIZE = 4;
const hex = (v: number) => `0x${v.toString(16).padStart(8, "0")}`;

/** A checksum codec: `checksum` over the payload, stored at the start or the end. */
class ChecksumCodec implements BytesToBytesCodec {
  readonly kind = "bytes_to_bytes" as const;

  constructor(
    readonly name: string,
    private readonly checksum: (payload: Uint8Array) => number,
    private readonly atStart: boolean,
    private readonly configuration: JsonObject,
  ) {}

  encode(bytes: Uint8Array): Uint8Array {
    const n = bytes.length;
    const out = new Uint8Array(n + SIZE);
    out.set(bytes, this.atStart ? SIZE : 0);
    const at = this.atStart ? 0 : n;
    const value = this.checksum(bytes);
    out[at] = value & 0xff;
    out[at + 1] = (value >>> 8) & 0xff;
    out[at + 2] = (value >>> 16) & 0xff;
    out[at + 3] = value >>> 24;
    return out;
  }

  decode(bytes: Uint8Array, ctx: CodecCallContext): Uint8Array {
    const n = bytes.length;
    if (n < SIZE) throw codecFailed(this.name, ctx, `${n} bytes are too short to hold a 4-byte checksum`);
    const at = this.atStart ? 0 : n - SIZE;
    const payload = this.atStart ? bytes.subarray(SIZE) : bytes.subarray(0, n - SIZE);
    const stored = (bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24)) >>> 0;
    const computed = this.checksum(payload);
    if (stored !== computed) {
      throw new ZarrError(
        "CHECKSUM_MISMATCH",
        `${this.name}: checksum mismatch in chunk "${ctx.key}": stored ${hex(stored)}, computed ${hex(computed)} over ${payload.length} bytes`,
        { key: ctx.key },
      );
    }
    return payload;
  }

  computeEncodedSize(decodedSize: number): number {
    return decodedSize + SIZE;
  }

  toJSON(): ExtensionObject {
    return { name: this.name, configuration: structuredClone(this.configuration) };
  }
}

function locationEntry(id: string, checksum: (payload: Uint8Array) => number): CodecEntry {
  const name = `numcodecs.${id}`;
  return {
    type: "codec",
    name,
    codecKind: "bytes_to_bytes",
    package: "@zarr/codec-filters",
    fromConfig(configuration, context) {
      const r: ConfigReader = new ConfigReader(name, configuration, context.path, ["location"]);
      const location = r.oneOf("location", ["start", "end"] as const, "start");
      return new ChecksumCodec(name, checksum, location === "start", { location });
    },
  };
}

/**
 * `numcodecs.crc32` (bytes→bytes): zlib CRC-32, little endian, at `location` (default "start").
 *
 * @example
 * ```ts
 * const codecs = ["bytes", { name: "numcodecs.crc32", configuration: { location: "end" } }];
 * ```
 */
export const crc32Codec: CodecEntry = locationEntry("crc32", (b) => crc32(b));

/**
 * `numcodecs.adler32` (bytes→bytes): zlib Adler-32, little endian, at `location` (default "start").
 *
 * @example
 * ```ts
 * const codecs = ["bytes", { name: "numcodecs.adler32", configuration: {} }];
 * ```
 */
export const adler32Codec: CodecEntry = locationEntry("adler32", (b) => adler32(b));

/**
 * `numcodecs.fletcher32` (bytes→bytes, no configuration): HDF5 Fletcher-32 appended.
 *
 * @example
 * ```ts
 * const codecs = ["bytes", "numcodecs.fletcher32"];
 * ```
 */
export const fletcher32Codec: CodecEntry = {
  type: "codec",
  name: "numcodecs.fletcher32",
  codecKind: "bytes_to_bytes",
  package: "@zarr/codec-filters",
  fromConfig(configuration, context) {
    new ConfigReader("numcodecs.fletcher32", configuration, context.path, []);
    return new ChecksumCodec("numcodecs.fletcher32", fletcher32, false, {});
  },
};

/** Reads `prefix`: an array of byte values or a base64 string. */
function readPrefix(r: ConfigReader): Uint8Array | undefined {
  const v: JsonValue | undefined = r.raw("prefix");
  if (v === undefined || v === null) return undefined;
  if (typeof v === "string") {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(v) || v.length % 4 !== 0) r.fail("prefix", "expected base64 text or an array of bytes");
    const text = atob(v);
    const out = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
    return out;
  }
  if (Array.isArray(v) && v.every((b) => typeof b === "number" && Number.isInteger(b) && b >= 0 && b <= 255)) {
    return Uint8Array.from(v as number[]);
  }
  return r.fail("prefix", "expected base64 text or an array of integers 0–255");
}

/**
 * `numcodecs.jenkins_lookup3` (bytes→bytes): lookup3 hash seeded with `initval` (default 0)
 * over `prefix` (optional bytes, as an array of integers or base64) + data, appended.
 *
 * @example
 * ```ts
 * const codecs = ["bytes", { name: "numcodecs.jenkins_lookup3", configuration: { initval: 0 } }];
 * ```
 */
export const jenkinsLookup3Codec: CodecEntry = {
  type: "codec",
  name: "numcodecs.jenkins_lookup3",
  codecKind: "bytes_to_bytes",
  package: "@zarr/codec-filters",
  fromConfig(configuration, context) {
    const name = "numcodecs.jenkins_lookup3";
    const r: ConfigReader = new ConfigReader(name, configuration, context.path, ["initval", "prefix"]);
    const initval = r.integer("initval", 0, 0xffffffff, 0);
    const prefix = readPrefix(r);
    const json: JsonObject = { initval };
    if (prefix !== undefined) json.prefix = structuredClone(r.raw("prefix") as JsonValue);
    const checksum =
      prefix === undefined
        ? (b: Uint8Array) => lookup3(b, initval)
        : (b: Uint8Array) => {
            const joined = new Uint8Array(prefix.length + b.length);
            joined.set(prefix);
            joined.set(b, prefix.length);
            return lookup3(joined, initval);
          };
    return new ChecksumCodec(name, checksum, false, json);
  },
};
