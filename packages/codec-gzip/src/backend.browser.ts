/**
 * The backend of browsers and any runtime without the "node" export condition: decoding
 * with the inflate WebAssembly kernel, else the runtime's `DecompressionStream` where it has
 * one (native-stream.ts, which hands over to the kernel after a while), and fflate
 * (fflate-backend.ts) for encoding, for data the stream refuses and where there is no
 * stream. Each is imported on first use: a reader of ordinary gzip chunks downloads the
 * small stream module, never fflate.
 */
import type { DeflateBackend } from "./backend.js";

/** fflate's backend, loaded once. */
const load = (): Promise<DeflateBackend> => import("./fflate-backend.js").then((m) => m.fflateBackend);
/** The stream decoder, which hands over to the inflate kernel after a while (one import site: the chunk's name ships once). */
const stream = () => import("./native-stream.js");
const hasStream = typeof DecompressionStream === "function";

/** The backend: the runtime's DecompressionStream and fflate, each loaded on first use. */
export const backend: DeflateBackend = {
  name: hasStream ? "DecompressionStream" : "fflate",
  preferBlocking: true,
  compressGzip: async (bytes, level) => (await load()).compressGzip(bytes, level),
  decompressGzip: async (bytes, maxOutput) => (await stream()).decompress(bytes, "gzip", maxOutput, load),
  compressZlib: async (bytes, level) => (await load()).compressZlib(bytes, level),
  decompressZlib: async (bytes, maxOutput) => (await stream()).decompress(bytes, "deflate", maxOutput, load),
  // What decoding will load: the stream module, or fflate where there is no stream.
  prefetch: () => void (hasStream ? stream() : load()).catch(() => {}),
};
