/**
 * The decoder's own failure: the stream breaks pcodec's format (corrupt or truncated).
 * {@link pcoDecompress} turns it into a `CODEC_FAILED` `ZarrError` naming the chunk.
 */
export class PcoFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PcoFormatError";
  }
}

/** Throws a {@link PcoFormatError}; typed `never` so callers can write `?? corrupt(…)`. */
export function corrupt(message: string): never {
  throw new PcoFormatError(message);
}
