/**
 * The backend of browsers and any runtime without the "node" export condition: decoding
 * with the inflate WebAssembly kernel, else the runtime's `DecompressionStream` where it has
 * one (native-stream.ts, which hands over to the kernel after a while), and fflate
 * (fflate-backend.ts) for encoding, for data the stream refuses and where there is no
 * stream. The stream module comes with this one (every gzip read in a browser decodes
 * through it: loaded on first use, it cost a first read one more module file and round
 * trip for 1.1 KB); fflate is imported on first use, so a reader of ordinary gzip chunks
 * never downloads it.
 */
import type { DeflateBackend } from "./backend.js";
import { decompress } from "./native-stream.js";

/** fflate's backend, loaded once. */
const load = (): Promise<DeflateBackend> => import("./fflate-backend.js").then((m) => m.fflateBackend);
const hasStream = typeof DecompressionStream === "function";

/** The backend: the runtime's DecompressionStream (native-stream.ts), and fflate loaded on first use. */
export const backend: DeflateBackend = {
  name: hasStream ? "DecompressionStream" : "fflate",
  preferBlocking: true,
  compressGzip: async (bytes, level) => (await load()).compressGzip(bytes, level),
  decompressGzip: async (bytes, maxOutput) => decompress(bytes, "gzip", maxOutput, load),
  compressZlib: async (bytes, level) => (await load()).compressZlib(bytes, level),
  decompressZlib: async (bytes, maxOutput) => decompress(bytes, "deflate", maxOutput, load),
  // What decoding will load: fflate where there is no stream (the stream decoder is here).
  prefetch: () => {
    if (!hasStream) load().catch(() => {});
  },
};
