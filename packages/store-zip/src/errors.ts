/** Errors that name the archive (and the entry, when there is one). */
import { ZarrError, type ZarrErrorCode } from "@zarr/spec";

/**
 * A `ZarrError` whose message starts with `Zip archive "<archive>"` (and the entry when
 * given), so a failure deep inside a nested store still says which file was bad.
 */
export function zipError(code: ZarrErrorCode, archive: string, detail: string, entry?: string, cause?: unknown): ZarrError {
  const where = entry === undefined ? `Zip archive "${archive}"` : `Entry "${entry}" of zip archive "${archive}"`;
  return new ZarrError(code, `${where}: ${detail}`, { key: entry ?? archive, cause });
}

/** Corrupt or undecodable archive bytes. */
export function corrupt(archive: string, detail: string, entry?: string): ZarrError {
  return zipError("CODEC_FAILED", archive, `corrupt archive: ${detail}`, entry);
}
