/**
 * The payloads of the zstd corpus tests (built once per test file): typical arrays plus
 * data shaped to bring out each block feature. The decoder corpus encodes them with
 * libzstd and this package's encoder; the encoder-kernel tests compare both encoders on them.
 */
import { rng, sampleArrays } from "./reference.js";

let dataCache: Record<string, Uint8Array> | undefined;
/** Deterministic payloads, each shaped to bring out some decoder path (built once). */
export function corpusData(): Record<string, Uint8Array> {
  dataCache ??= buildCorpusData();
  return dataCache;
}

function buildCorpusData(): Record<string, Uint8Array> {
  const r = rng(2024);
  const random = (n: number) => Uint8Array.from({ length: n }, () => Math.floor(r() * 256));
  const arrays = sampleArrays(200_000, 8);
  // Long matches: a random block three times (matches longer than a block).
  const block = random(100_000);
  const repeated = new Uint8Array(300_000);
  for (let i = 0; i < 3; i++) repeated.set(block, i * 100_000);
  // Random stretches (long literal runs) between periodic runs of period 1, 2, 3, 5, 16
  // (overlapping matches, short and long).
  const runs = new Uint8Array(200_000);
  for (let at = 0; at < runs.length; ) {
    const len = Math.min(runs.length - at, 50 + Math.floor(r() * 3000));
    if (r() < 0.4) runs.set(random(len), at);
    else {
      const period = [1, 2, 3, 5, 16][Math.floor(r() * 5)];
      const unit = random(period);
      for (let k = 0; k < len; k++) runs[at + k] = unit[k % period];
    }
    at += len;
  }
  // Many tiny matches: 3-byte tokens picked at random (dense sequences).
  const tokens = Array.from({ length: 12 }, () => random(3));
  const dense = new Uint8Array(262_144);
  for (let at = 0; at + 3 <= dense.length; at += 3) dense.set(tokens[Math.floor(r() * tokens.length)], at);
  // A small skewed alphabet (few Huffman weights) and mostly-zero data (RLE blocks).
  const skewed = Uint8Array.from({ length: 200_000 }, () => Math.min(40, Math.floor(-Math.log(1 - r()) * 4)));
  const zeros = new Uint8Array(280_000);
  for (let i = 0; i < 20; i++) zeros[Math.floor(r() * 100_000)] = 1 + Math.floor(r() * 255);
  return {
    ...arrays,
    random: random(150_000),
    repeated,
    runs,
    dense,
    skewed,
    zeros,
    tiny: new Uint8Array([7]),
    short: arrays.text.subarray(0, 700),
  };
}
