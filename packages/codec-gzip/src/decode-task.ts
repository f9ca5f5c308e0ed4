/** Worker-side entry point: gzip/zlib decoding run by a worker pool (see `workerDecode`). */
import { backend } from "#backend";
import { ZarrError } from "@zarr/spec";

/**
 * Decodes a gzip (all members) or zlib stream; errors name `key`. Blocking where the
 * backend can: this runs in a worker thread, which has nothing else to do meanwhile.
 */
export async function decode(bytes: Uint8Array, format: "gzip" | "zlib", key: string): Promise<Uint8Array> {
  try {
    return await blockingDecoder(format)(bytes);
  } catch (error) {
    throw failed(format, key, error);
  }
}

/** The backend's blocking decoder for `format`, or its only one (fflate's block anyway). */
function blockingDecoder(format: "gzip" | "zlib"): (bytes: Uint8Array) => Uint8Array | Promise<Uint8Array> {
  return format === "gzip" ? (backend.decompressGzipSync ?? backend.decompressGzip) : (backend.decompressZlibSync ?? backend.decompressZlib);
}

function failed(format: string, key: string, error: unknown): ZarrError {
  return new ZarrError("CODEC_FAILED", `${format}: cannot decode chunk "${key}": ${(error as Error)?.message ?? error}`, {
    key,
    cause: error,
  });
}

/**
 * Decodes into the start of `scratch`, a buffer the worker keeps between chunks, when the
 * backend can and the data fits with room to spare; else as `decode` does (see
 * `WorkerCall.intoExportName`). Synchronous, as that contract requires.
 */
export function decodeInto(bytes: Uint8Array, scratch: Uint8Array, format: "gzip" | "zlib", key: string): Uint8Array {
  try {
    const into = backend.decompressInto?.(bytes, format, scratch);
    if (into !== undefined) return into;
    const decoded = blockingDecoder(format)(bytes);
    if (decoded instanceof Uint8Array) return decoded;
    decoded.catch(() => {});
    throw new Error(`the ${backend.name} backend cannot decode synchronously`);
  } catch (error) {
    throw failed(format, key, error);
  }
}
