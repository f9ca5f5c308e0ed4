/** Errors that name the repository object (or chunk) they are about. */
import { ZarrError, type ZarrErrorCode } from "@zarr/spec";

/** A `ZarrError` whose message starts with `Icechunk <object>: `, keyed by the object's store key. */
export function icechunkError(code: ZarrErrorCode, object: string, detail: string, cause?: unknown): ZarrError {
  return new ZarrError(code, `Icechunk ${object}: ${detail}`, { key: object, cause });
}

/** Bytes of a repository file that cannot be what they claim to be (`CODEC_FAILED`). */
export function corrupt(object: string, detail: string, cause?: unknown): ZarrError {
  return icechunkError("CODEC_FAILED", object, `corrupt file: ${detail}`, cause);
}
