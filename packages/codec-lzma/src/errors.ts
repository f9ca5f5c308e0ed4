/** Error helpers: every failure names the chunk key so a broken chunk can be found. */
import { ZarrError } from "@zarr/spec";

/** Corrupt, truncated or undecodable input: `CODEC_FAILED` naming the chunk key. */
export function corrupt(key: string, problem: string): ZarrError {
  return new ZarrError("CODEC_FAILED", `lzma: cannot decode "${key}": ${problem}`, { key });
}

/** Stored integrity check does not match the data: `CHECKSUM_MISMATCH` naming the chunk key. */
export function checksumMismatch(key: string, what: string): ZarrError {
  return new ZarrError("CHECKSUM_MISMATCH", `lzma: ${what} mismatch in "${key}"`, { key });
}

/** Input the encoder cannot handle (too large, or options that only fail at encode time). */
export function unsupported(key: string, problem: string): ZarrError {
  return new ZarrError("UNSUPPORTED", `lzma: cannot encode "${key}": ${problem}`, { key });
}
