/**
 * The `crc32c` bytes→bytes codec: appends the CRC-32C of the data as a little-endian
 * uint32 and verifies it when decoding. Also registered as `numcodecs.crc32c`, whose
 * numcodecs configuration may put the checksum first (`location: "start"`).
 */
import {
  type BytesToBytesCodec,
  type CodecCallContext,
  type CodecEntry,
  describeJson,
  type ExtensionObject,
  type JsonObject,
  type JsonPath,
  MetadataError,
  workerModuleUrl,
} from "@zarr/spec";
import { CHECKSUM_SIZE, type ChecksumLocation, verifiedPayload } from "./checksum.js";
import { crc32c } from "./crc32c.js";

export type { ChecksumLocation } from "./checksum.js";


/** Configuration of the crc32c codec: empty, or numcodecs' `{location}`. */
export interface Crc32cConfiguration {
  /** numcodecs' `CRC32C(location=...)`; default "end", the only layout of Zarr v3 `crc32c`. */
  location?: ChecksumLocation;
}

/** The codec for one array. Stateless; decode returns a view into its input. */
class Crc32cCodec implements BytesToBytesCodec {
  readonly kind = "bytes_to_bytes" as const;
  readonly name = "crc32c";

  constructor(readonly location: ChecksumLocation) {}

  encode(bytes: Uint8Array, _ctx: CodecCallContext): Uint8Array {
    const n = bytes.length;
    const out = new Uint8Array(n + CHECKSUM_SIZE);
    const at = this.location === "end" ? n : 0;
    out.set(bytes, this.location === "end" ? 0 : CHECKSUM_SIZE);
    const checksum = crc32c(bytes);
    out[at] = checksum & 0xff;
    out[at + 1] = (checksum >>> 8) & 0xff;
    out[at + 2] = (checksum >>> 16) & 0xff;
    out[at + 3] = checksum >>> 24;
    return out;
  }

  decode(bytes: Uint8Array, ctx: CodecCallContext): Uint8Array {
    return verifiedPayload(bytes, this.location, ctx.key);
  }

  computeEncodedSize(decodedSize: number): number {
    return decodedSize + CHECKSUM_SIZE;
  }

  toJSON(): ExtensionObject {
    // Zarr v3 `crc32c` has no configuration; a leading checksum exists only in numcodecs.
    return this.location === "end"
      ? { name: "crc32c", configuration: {} }
      : { name: "numcodecs.crc32c", configuration: { location: "start" } };
  }
}

/** Validates the configuration: nothing, or numcodecs' `location` (and its `id`). */
function parseLocation(configuration: JsonObject, path: JsonPath): ChecksumLocation {
  for (const key of Object.keys(configuration)) {
    if (key === "location" || (key === "id" && configuration.id === "crc32c")) continue;
    throw new MetadataError(
      [...path, "configuration", key],
      `unknown configuration key ${JSON.stringify(key)} for the crc32c codec (it takes no configuration)`,
    );
  }
  const location = configuration.location;
  if (location === undefined || location === "end") return "end";
  if (location === "start") return "start";
  throw new MetadataError([...path, "configuration", "location"], `expected "start" or "end", found ${describeJson(location)}`);
}

/**
 * The `crc32c` codec entry (alias `numcodecs.crc32c`).
 *
 * @example
 * ```ts
 * const registry = createRegistry([crc32cCodec]);
 * ```
 */
export const crc32cCodec: CodecEntry = {
  type: "codec",
  name: "crc32c",
  aliases: ["numcodecs.crc32c"],
  codecKind: "bytes_to_bytes",
  package: "@zarr/codec-crc32c",
  worker: { moduleUrl: workerModuleUrl(import.meta.url, "codec.js"), moduleName: "@zarr/codec-crc32c", exportName: "crc32cCodec" },
  lightweight: true,
  fromConfig: (configuration, context) => new Crc32cCodec(parseLocation(configuration, context.path)),
};
