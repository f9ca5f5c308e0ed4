/**
 * The backend of browsers and any runtime without the "node" export condition: decoding
 * with the inflate WebAssembly kernel, else the runtime's `DecompressionStream` where it has
 * one (inflate-first.ts, native-stream.ts), and fflate
 * (fflate-backend.ts) for encoding, for data the stream refuses and where there is no
 * stream. Each is imported on first use: a reader of ordinary gzip chunks downloads the
 * small stream module, never fflate.
 */
import type { DeflateBackend } from "./backend.js";

/** fflate's backend, loaded once. */
const load = (): Promise<DeflateBackend> => import("./fflate-backend.js").then((m) => m.fflateBackend);

/** The backend: the runtime's DecompressionStream and fflate, each loaded on first use. */
export const backend: DeflateBackend = {
  name: typeof DecompressionStream === "function" ? "DecompressionStream" : "fflate",
  preferBlocking: true,
  compressGzip: async (bytes, level) => (await load()).compressGzip(bytes, level),
  decompressGzip: async (bytes, maxOutput) => (await import("./inflate-first.js")).decompress(bytes, "gzip", maxOutput, load),
  compressZlib: async (bytes, level) => (await load()).compressZlib(bytes, level),
  decompressZlib: async (bytes, maxOutput) => (await import("./inflate-first.js")).decompress(bytes, "deflate", maxOutput, load),
};
