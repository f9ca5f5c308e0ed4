/**
 * FSE (tANS) decoding tables (RFC 8878 §4.1): reading a table description
 * (normalized distribution) and building decoding tables from it, in typed arrays.
 *
 * Two table shapes are built:
 * - a plain table (symbol, Number_of_Bits, Baseline per state) for the Huffman weights;
 * - a sequence table for literal lengths, match lengths and offsets, where each state
 *   already carries what the sequence loop needs: the code's baseline value and extra
 *   bits, plus the state transition. Two int32 per state:
 *   `[2s] = code baseline`, `[2s+1] = nextBaseline << 16 | Number_of_Bits << 8 | extraBits`.
 */
import { corrupt } from "./corrupt.js";

/** A normalized distribution read from a table description (reused between blocks). */
export interface FseDistribution {
  /** Normalized probabilities, -1 meaning "less than 1". */
  readonly norm: Int16Array;
  /** Number of symbols described (the last one + 1). */
  symbolCount: number;
  /** Accuracy_Log. */
  log: number;
}

/** A fresh distribution holder for symbols 0..maxSymbol. */
export function newDistribution(maxSymbol: number): FseDistribution {
  return { norm: new Int16Array(maxSymbol + 1), symbolCount: 0, log: 0 };
}

/** Up to 32 bits of `src` at byte `i`, little-endian; bytes at or past `end` read as 0. */
function readForward(src: Uint8Array, i: number, end: number): number {
  if (i + 4 <= end) return (src[i] | (src[i + 1] << 8) | (src[i + 2] << 16) | (src[i + 3] << 24)) >>> 0;
  let v = 0;
  for (let k = 0; k < 4 && i + k < end; k++) v |= src[i + k] << (8 * k);
  return v >>> 0;
}

/**
 * Reads an FSE table description (RFC 8878 §4.1.1) at `src[pos..end)` into `dist`.
 * Returns the offset just past it (descriptions use whole bytes).
 */
export function readDistribution(
  src: Uint8Array,
  pos: number,
  end: number,
  maxLog: number,
  maxSymbol: number,
  dist: FseDistribution,
): number {
  if (pos >= end) corrupt("truncated FSE table description");
  const log = (src[pos] & 15) + 5;
  if (log > maxLog) corrupt(`FSE accuracy log ${log} is over the maximum of ${maxLog}`);
  const norm = dist.norm;
  let bit = pos * 8 + 4;
  const endBit = end * 8;
  let remaining = (1 << log) + 1;
  let threshold = 1 << log;
  let nbBits = log + 1;
  let symbol = 0;
  while (remaining > 1 && symbol <= maxSymbol) {
    const v = readForward(src, bit >>> 3, end) >>> (bit & 7);
    const max = 2 * threshold - 1 - remaining;
    let count: number;
    if ((v & (threshold - 1)) < max) {
      count = v & (threshold - 1);
      bit += nbBits - 1;
    } else {
      count = v & (2 * threshold - 1);
      if (count >= threshold) count -= max;
      bit += nbBits;
    }
    count--; // probability: value - 1 (so 0 means "less than 1")
    remaining -= count < 0 ? -count : count;
    norm[symbol++] = count;
    if (count === 0) {
      // Zero probabilities are followed by 2-bit repeat flags (3 = "3 more and another flag").
      for (;;) {
        const repeat = (readForward(src, bit >>> 3, end) >>> (bit & 7)) & 3;
        bit += 2;
        if (symbol + repeat > maxSymbol + 1) corrupt("FSE table description lists too many symbols");
        for (let k = 0; k < repeat; k++) norm[symbol++] = 0;
        if (repeat !== 3) break;
        if (bit > endBit) corrupt("truncated FSE table description");
      }
    }
    if (bit > endBit) corrupt("truncated FSE table description");
    if (remaining <= 1) break;
    while (remaining < threshold) {
      nbBits--;
      threshold >>= 1;
    }
  }
  if (remaining !== 1) corrupt("FSE table description does not add up to its table size");
  dist.symbolCount = symbol;
  dist.log = log;
  return (bit + 7) >>> 3;
}

// Scratch for the table builders: the next state value of each symbol.
const nextState = new Uint16Array(256);

/**
 * Spreads the symbols of `dist` over `symbols` (length ≥ 2^log) as RFC 8878 §4.1.1
 * prescribes: "less than 1" symbols at the end, the others with the step rule.
 */
function spread(dist: FseDistribution, symbols: Uint8Array): void {
  const { norm, symbolCount, log } = dist;
  const size = 1 << log;
  let high = size - 1;
  for (let s = 0; s < symbolCount; s++) {
    if (norm[s] === -1) {
      symbols[high--] = s;
      nextState[s] = 1;
    } else {
      nextState[s] = norm[s];
    }
  }
  const mask = size - 1;
  const step = (size >> 1) + (size >> 3) + 3;
  let position = 0;
  for (let s = 0; s < symbolCount; s++) {
    const n = norm[s];
    for (let i = 0; i < n; i++) {
      symbols[position] = s;
      do position = (position + step) & mask;
      while (position > high);
    }
  }
  // The description summed to the table size, so the walk ends where it started.
  if (position !== 0) corrupt("FSE table description does not fill its table");
}

/** A plain FSE decoding table (used for Huffman weights; at most 2^6 states). */
export interface FseTable {
  readonly symbol: Uint8Array;
  readonly nbBits: Uint8Array;
  readonly baseline: Uint16Array;
  log: number;
}

/** A plain table holder for up to 2^maxLog states. */
export function newFseTable(maxLog: number): FseTable {
  const size = 1 << maxLog;
  return { symbol: new Uint8Array(size), nbBits: new Uint8Array(size), baseline: new Uint16Array(size), log: 0 };
}

/** Builds the decoding table of `dist` into `table`. */
export function buildFseTable(dist: FseDistribution, table: FseTable): void {
  const { log } = dist;
  const size = 1 << log;
  const { symbol, nbBits, baseline } = table;
  spread(dist, symbol);
  for (let u = 0; u < size; u++) {
    const s = symbol[u];
    const x = nextState[s]++;
    const nb = log - (31 - Math.clz32(x));
    nbBits[u] = nb;
    baseline[u] = (x << nb) - size;
  }
  table.log = log;
}

// Scratch symbol spread for the sequence tables (up to 2^9 states).
const spreadSymbols = new Uint8Array(512);

/**
 * Builds a sequence decoding table (see the module comment for the layout) for codes
 * whose baseline values and extra bits are `codeBase` and `codeBits`.
 */
export function buildSequenceTable(
  dist: FseDistribution,
  codeBase: ArrayLike<number>,
  codeBits: ArrayLike<number>,
  out: Int32Array,
): void {
  const { log } = dist;
  const size = 1 << log;
  spread(dist, spreadSymbols);
  for (let u = 0; u < size; u++) {
    const s = spreadSymbols[u];
    const x = nextState[s]++;
    const nb = log - (31 - Math.clz32(x));
    out[2 * u] = codeBase[s];
    out[2 * u + 1] = (((x << nb) - size) << 16) | (nb << 8) | codeBits[s];
  }
}

/** Fills `out` with the one-state table of RLE mode: always `symbol`, no state bits. */
export function buildRleSequenceTable(symbol: number, codeBase: ArrayLike<number>, codeBits: ArrayLike<number>, out: Int32Array): void {
  out[0] = codeBase[symbol];
  out[1] = codeBits[symbol];
}
