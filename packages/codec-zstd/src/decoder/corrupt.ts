/**
 * The one error the block decoder throws. It carries only the problem; the frame loop
 * (decompress.ts) turns it into a `ZarrError` CODEC_FAILED that names the chunk key and
 * the frame's offset, so the hot code never builds messages with context it lacks.
 */

/** Corrupt or truncated zstd data, found while decoding a frame. */
export class ZstdCorruption extends Error {
  override name = "ZstdCorruption";
}

/** Throws a `ZstdCorruption` describing `problem`. */
export function corrupt(problem: string): never {
  throw new ZstdCorruption(problem);
}
