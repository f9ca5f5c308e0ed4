/**
 * Bins and tANS coding for the encoder: a page's latents are split into up to 64 bins of
 * about equal counts (each a lower bound plus enough offset bits for its range), and the
 * bin of each latent is tANS-coded with weights proportional to the bins' counts, in
 * pcodec's four interleaved lanes.
 */
import { buildAnsDecoder } from "./ans.js";
import { ANS_INTERLEAVING, FULL_BATCH_N, MAX_ANS_BITS } from "./chunk-meta.js";

/** The bins of one page. */
export interface EncoderBins {
  /** Bin lower bounds, ascending. */
  lowers: (number | bigint)[];
  offsetBits: number[];
  weights: number[];
  ansSizeLog: number;
}

/** The most bins a page gets. */
const MAX_BINS = 64;

function bitLength(x: number | bigint): number {
  if (typeof x === "bigint") return x === 0n ? 0 : x.toString(2).length;
  return x === 0 ? 0 : 32 - Math.clz32(x);
}

/** Index of the bin holding `l`: the last lower bound ≤ `l`. */
function binOf(lowers: (number | bigint)[], l: number | bigint): number {
  let lo = 0;
  let hi = lowers.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lowers[mid] <= l) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Chooses bins for `latents` (at least one) and each latent's bin. */
export function chooseBins(latents: Uint32Array | BigUint64Array): { bins: EncoderBins; symbols: Uint16Array } {
  const n = latents.length;
  const sorted = latents.slice().sort();
  const target = Math.max(1, Math.min(MAX_BINS, 2 ** Math.floor(Math.log2(Math.max(1, n / 8)))));
  const max = sorted[n - 1];
  const lowers: (number | bigint)[] = [];
  const push = (lower: number | bigint) => {
    if (lowers.length === 0 || lower > lowers[lowers.length - 1]) lowers.push(lower);
  };
  for (let k = 0; k < target; k++) {
    const first = sorted[Math.floor((k * n) / target)];
    const last = sorted[Math.floor(((k + 1) * n) / target) - 1];
    push(first);
    // A group of one repeated value gets a bin of its own: no offset bits for it.
    if (first === last && first < max) push(typeof first === "bigint" ? first + 1n : first + 1);
  }
  const symbols = new Uint16Array(n);
  const counts = new Array<number>(lowers.length).fill(0);
  for (let i = 0; i < n; i++) {
    const s = binOf(lowers, latents[i]);
    symbols[i] = s;
    counts[s]++;
  }
  const offsetBits = lowers.map((lower, k) => {
    const upper = k + 1 < lowers.length ? (typeof lower === "bigint" ? (lowers[k + 1] as bigint) - 1n : (lowers[k + 1] as number) - 1) : max;
    return bitLength(typeof lower === "bigint" ? (upper as bigint) - lower : (upper as number) - lower);
  });
  if (lowers.length === 1) return { bins: { lowers, offsetBits, weights: [1], ansSizeLog: 0 }, symbols };
  const ansSizeLog = Math.min(MAX_ANS_BITS, Math.ceil(Math.log2(lowers.length)) + 3);
  const tableSize = 2 ** ansSizeLog;
  // Weights proportional to counts, at least 1 each, adding up to the table size.
  const weights = counts.map((c) => Math.max(1, Math.round((c * tableSize) / n)));
  let sum = weights.reduce((a, b) => a + b, 0);
  while (sum !== tableSize) {
    let big = 0;
    for (let k = 1; k < weights.length; k++) if (weights[k] > weights[big]) big = k;
    if (sum > tableSize) {
      if (weights[big] === 1) break; // cannot happen: tableSize ≥ 8 × bins
      weights[big]--;
      sum--;
    } else {
      weights[big]++;
      sum++;
    }
  }
  return { bins: { lowers, offsetBits, weights, ansSizeLog }, symbols };
}

/** The tANS code of a page's bin indices: bits per symbol, their values, and the lanes' first states. */
export interface AnsCode {
  bits: Uint8Array;
  values: Uint16Array;
  /** The state each lane starts decoding from (written in the page metadata). */
  initialStates: number[];
}

/**
 * tANS-codes `symbols` for bins of `weights`: runs the decoder's state machine backwards,
 * last symbol first, so that decoding forwards from `initialStates` reads each symbol's
 * bits and lands on the state the next symbol of its lane needs.
 */
export function ansEncode(symbols: Uint16Array, weights: number[], ansSizeLog: number): AnsCode {
  const tableSize = 2 ** ansSizeLog;
  const decoder = buildAnsDecoder(ansSizeLog, Uint32Array.from(weights));
  // The states of each symbol, in table order: the k-th has counter x_s = weight + k.
  const statesOf: number[][] = weights.map(() => []);
  for (let state = 0; state < tableSize; state++) statesOf[decoder.symbol[state]].push(state);
  const n = symbols.length;
  const bits = new Uint8Array(n);
  const values = new Uint16Array(n);
  const lanes = new Array<number>(ANS_INTERLEAVING).fill(0);
  for (let i = n - 1; i >= 0; i--) {
    const lane = i % ANS_INTERLEAVING;
    const x = tableSize + lanes[lane];
    const s = symbols[i];
    const w = weights[s];
    let b = Math.clz32(w) - Math.clz32(x);
    if (x >>> b < w) b--;
    bits[i] = b;
    values[i] = x & ((1 << b) - 1);
    lanes[lane] = statesOf[s][(x >>> b) - w];
  }
  return { bits, values, initialStates: lanes };
}

/** Batches of the page: `[start, end)` per batch of up to 256 numbers. */
export function* batches(n: number): Generator<[number, number]> {
  for (let start = 0; start < n; start += FULL_BATCH_N) yield [start, Math.min(n, start + FULL_BATCH_N)];
}
