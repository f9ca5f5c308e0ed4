// The page of bench/kernels-inflate.mjs: decodes the same gzip chunks in Chromium's main
// thread with each decoder the gzip codec could use there — the inflate WebAssembly kernel,
// fflate (the codec's exact path) and the runtime's DecompressionStream (the codec's browser
// default) — and times each (wall ms per round, the chunks decoded one after the other).
import { decompressNative } from "../../../packages/codec-gzip/dist/native-stream.js";
import { gunzipVerified } from "../../../packages/codec-gzip/dist/fflate-backend.js";
import { inflateIntoWithKernel, inflateKernelReady, inflateWithKernel } from "../../../packages/codec-gzip/dist/inflate-kernel.js";

/** The chunks: `/chunks.bin` holds them back to back, `/chunks.json` their lengths and decoded size. */
async function loadChunks() {
  const { lengths, size } = await (await fetch("/chunks.json")).json();
  const all = new Uint8Array(await (await fetch("/chunks.bin")).arrayBuffer());
  const chunks = [];
  let at = 0;
  for (const n of lengths) {
    chunks.push(all.slice(at, at + n));
    at += n;
  }
  return { chunks, size };
}

const DECODERS = {
  // Fresh output per chunk, as a decode without a kept buffer gets it.
  "WASM kernel": async (chunks, size) => {
    let total = 0;
    for (const c of chunks) total += inflateWithKernel(c, "gzip", size).length;
    return total;
  },
  // One output buffer kept from chunk to chunk (the codec's decodeInto).
  "WASM kernel, into a kept buffer": async (chunks, _size, out) => {
    let total = 0;
    for (const c of chunks) total += inflateIntoWithKernel(c, "gzip", out).length;
    return total;
  },
  fflate: async (chunks, size) => {
    let total = 0;
    for (const c of chunks) total += gunzipVerified(c, size).length;
    return total;
  },
  DecompressionStream: async (chunks, size) => {
    let total = 0;
    for (const c of chunks) total += (await decompressNative(c, "gzip", size)).length;
    return total;
  },
  "DecompressionStream, all chunks at once": async (chunks, size) => {
    const all = await Promise.all(chunks.map((c) => decompressNative(c, "gzip", size)));
    return all.reduce((n, d) => n + d.length, 0);
  },
};

globalThis.bench = {
  names: Object.keys(DECODERS),
  /** Times `rounds` rounds of each decoder, taking turns; resolves { name: [ms per round] }. */
  async run(rounds) {
    await inflateKernelReady();
    const { chunks, size } = await loadChunks();
    const out = new Uint8Array(size + 1);
    const times = Object.fromEntries(Object.keys(DECODERS).map((k) => [k, []]));
    for (let r = -1; r < rounds; r++) {
      for (const [name, decode] of Object.entries(DECODERS)) {
        const t0 = performance.now();
        const total = await decode(chunks, size, out);
        const ms = performance.now() - t0;
        if (total !== chunks.length * size) throw new Error(`${name} decoded ${total} bytes, expected ${chunks.length * size}`);
        if (r >= 0) times[name].push(ms);
      }
    }
    return times;
  },
};
