/** Worker-side entry point: gzip/zlib decoding run by a worker pool (see `workerDecode`). */
import { backend } from "#backend";
import { ZarrError } from "@zarr/spec";

/** Decodes a gzip (all members) or zlib stream; errors name `key`. */
export async function decode(bytes: Uint8Array, format: "gzip" | "zlib", key: string): Promise<Uint8Array> {
  try {
    return await (format === "gzip" ? backend.decompressGzip(bytes) : backend.decompressZlib(bytes));
  } catch (error) {
    throw new ZarrError("CODEC_FAILED", `${format}: cannot decode chunk "${key}": ${(error as Error)?.message ?? error}`, {
      key,
      cause: error,
    });
  }
}
