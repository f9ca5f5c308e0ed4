/**
 * The backend of browsers and any runtime without the "node" export condition: fflate
 * (fflate-backend.ts), imported the first time a chunk is compressed or decompressed, so
 * a bundle keeps fflate and the gzip checks out of its first chunk.
 */
import type { DeflateBackend } from "./backend.js";

/** fflate's backend, loaded once. */
const load = (): Promise<DeflateBackend> => import("./fflate-backend.js").then((m) => m.fflateBackend);

/** The fflate backend, loaded on first use. */
export const backend: DeflateBackend = {
  name: "fflate",
  preferBlocking: true,
  compressGzip: async (bytes, level) => (await load()).compressGzip(bytes, level),
  decompressGzip: async (bytes, maxOutput) => (await load()).decompressGzip(bytes, maxOutput),
  compressZlib: async (bytes, level) => (await load()).compressZlib(bytes, level),
  decompressZlib: async (bytes, maxOutput) => (await load()).decompressZlib(bytes, maxOutput),
};
