/** The `bytes` codec's error for a stored value of the wrong size, shared by its whole and partial reads. */
import { type ChunkSpec, ZarrError } from "@zarr/spec";

/** The error of a stored value whose size is not the chunk's. */
export function wrongSize(key: string, got: number, spec: ChunkSpec, want: number): ZarrError {
  return new ZarrError(
    "CODEC_FAILED",
    `Chunk "${key}" has ${got} bytes, but ${JSON.stringify(spec.shape)} elements of ${spec.dataType.name} take ${want}`,
    { key },
  );
}
