/** Worker-side entry point: gzip/zlib decoding run by a worker pool (see `workerDecode`). */
import { backend } from "#backend";
import { ZarrError } from "@zarr/spec";

/**
 * Decodes a gzip (all members) or zlib stream; errors name `key`. Blocking where the
 * backend can: this runs in a worker thread, which has nothing else to do meanwhile.
 */
export async function decode(bytes: Uint8Array, format: "gzip" | "zlib", key: string): Promise<Uint8Array> {
  try {
    if (format === "gzip") return await (backend.decompressGzipSync ?? backend.decompressGzip)(bytes);
    return await (backend.decompressZlibSync ?? backend.decompressZlib)(bytes);
  } catch (error) {
    throw new ZarrError("CODEC_FAILED", `${format}: cannot decode chunk "${key}": ${(error as Error)?.message ?? error}`, {
      key,
      cause: error,
    });
  }
}
