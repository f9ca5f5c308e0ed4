// Encode/decode throughput of the raw functions on a 4 MiB float32 array.
// Run after building: `npx tsc -p tsconfig.build.json && node bench/throughput.mjs [levels...]`.
// Two payloads: "temperatures" (values rounded to 0.01, so every float recurs: about one
// sequence per 4 bytes, the worst case for an LZ encoder) and "smooth" (sin(x), few
// exact repeats: mostly Huffman-coded literals).
import { zstdCompress, zstdDecompress } from "../dist/index.js";

const N = 1 << 20;
let seed = 1;
const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
const temperatures = new Float32Array(N);
for (let i = 0; i < N; i++) {
  temperatures[i] = Math.round((280 + 10 * Math.sin(i / 5000) + 5 * Math.cos(i / 37) + rnd()) * 100) / 100;
}
const smooth = new Float32Array(N);
for (let i = 0; i < N; i++) smooth[i] = Math.sin(i / 100) * 100;

const levels = process.argv.length > 2 ? process.argv.slice(2).map(Number) : [-5, 1, 3, 9];
const time = (fn, minMs) => {
  fn(); // warm-up
  let runs = 0;
  const start = performance.now();
  do {
    fn();
    runs++;
  } while (performance.now() - start < minMs);
  return (performance.now() - start) / runs;
};
// A trivial byte loop as a yardstick: on a shared, busy machine every number scales with it.
{
  const bytes = new Uint8Array(4 << 20).map((_, i) => i * 7);
  let sum = 0;
  const ms = time(() => {
    for (let i = 0; i < bytes.length; i++) sum = (sum + bytes[i]) | 0;
  }, 500);
  console.log(`yardstick: byte-sum loop ${(bytes.length / 1e6 / (ms / 1000)).toFixed(0)} MB/s (${sum & 1})`);
}
for (const [name, array] of Object.entries({ temperatures, smooth })) {
  const data = new Uint8Array(array.buffer);
  const mb = data.length / 1e6;
  for (const level of levels) {
    let frame;
    const encMs = time(() => {
      frame = zstdCompress(data, level);
    }, 1500);
    const decMs = time(() => zstdDecompress(frame), 1000);
    const back = zstdDecompress(frame);
    if (back.length !== data.length || back.some((v, i) => v !== data[i])) throw new Error("round trip failed");
    console.log(
      `${name} level ${level}: ${data.length} → ${frame.length} bytes (×${(data.length / frame.length).toFixed(2)}), ` +
        `encode ${(mb / (encMs / 1000)).toFixed(1)} MB/s, decode ${(mb / (decMs / 1000)).toFixed(1)} MB/s`,
    );
  }
}
