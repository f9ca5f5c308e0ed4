/**
 * Finite State Entropy (tANS) as zstd uses it (RFC 8878 §4.1): turning symbol counts
 * into a normalized distribution, writing that distribution as an `FSE Table
 * Description`, and building the encoding table the sequence and Huffman-weight
 * encoders drive. The decoding table builder exists so encoders can check an edge
 * case of the weight stream against the decoders' exact behaviour.
 */
import type { BitWriter } from "./bit-writer.js";
import { highBit } from "./tables.js";

/** An FSE encoding table (the "CTable" of the reference implementation). */
export interface FseEncodingTable {
  readonly tableLog: number;
  /** Encoder state (tableSize + decoder state) for each (symbol, occurrence) slot. */
  readonly stateTable: Uint16Array;
  /** Per symbol: (maxBitsOut << 16) - minStatePlus; the bits to emit are (state + delta) >> 16. */
  readonly deltaNbBits: Int32Array;
  /** Per symbol: offset from (state >> nbBits) to the symbol's slice of `stateTable`. */
  readonly deltaFindState: Int32Array;
}

/**
 * Picks an accuracy log for `total` symbols whose largest value is `maxSymbol`: smaller
 * tables for few symbols (cheaper description), never fewer states than symbols.
 */
export function optimalTableLog(maxLog: number, total: number, maxSymbol: number): number {
  const srcBits = highBit(Math.max(total - 1, 1));
  let log = Math.min(maxLog, srcBits - 2);
  const minBits = Math.min(srcBits + 1, highBit(Math.max(maxSymbol, 1)) + 2);
  if (minBits > log) log = minBits;
  return Math.max(5, Math.min(maxLog, log));
}

/**
 * Scales `counts[0..maxSymbol]` (summing to `total`) to a distribution summing to
 * 2^tableLog. Every present symbol keeps at least 1; rounding is settled by moving
 * points where they cost (or gain) the fewest bits.
 */
export function normalizeCounts(counts: Uint32Array, maxSymbol: number, total: number, tableLog: number): Int16Array {
  const tableSize = 1 << tableLog;
  const norm = new Int16Array(maxSymbol + 1);
  let sum = 0;
  for (let s = 0; s <= maxSymbol; s++) {
    const c = counts[s];
    if (c === 0) continue;
    const v = Math.max(1, Math.round((c * tableSize) / total));
    norm[s] = v;
    sum += v;
  }
  while (sum > tableSize) {
    // Remove a point where it hurts least: cost count * log2(n / (n - 1)).
    let best = -1;
    let bestCost = Number.POSITIVE_INFINITY;
    for (let s = 0; s <= maxSymbol; s++) {
      const n = norm[s];
      if (n <= 1) continue;
      const cost = counts[s] * Math.log2(n / (n - 1));
      if (cost < bestCost) {
        bestCost = cost;
        best = s;
      }
    }
    norm[best]--;
    sum--;
  }
  while (sum < tableSize) {
    // Add a point where it helps most: gain count * log2((n + 1) / n).
    let best = -1;
    let bestGain = -1;
    for (let s = 0; s <= maxSymbol; s++) {
      const n = norm[s];
      if (n === 0) continue;
      const gain = counts[s] * Math.log2((n + 1) / n);
      if (gain > bestGain) {
        bestGain = gain;
        best = s;
      }
    }
    norm[best]++;
    sum++;
  }
  return norm;
}

/** Estimated bits to code `counts` with `norm` (Infinity if a present symbol has no state). */
export function estimateBits(counts: Uint32Array, maxCountedSymbol: number, norm: Int16Array, tableLog: number): number {
  let bits = 0;
  for (let s = 0; s <= maxCountedSymbol; s++) {
    const c = counts[s];
    if (c === 0) continue;
    const n = s < norm.length ? norm[s] : 0;
    if (n === 0) return Number.POSITIVE_INFINITY;
    bits += c * (tableLog - (n < 0 ? 0 : Math.log2(n)));
  }
  return bits;
}

/** Writes a distribution as an `FSE Table Description` (byte-aligned at the end). */
export function writeTableDescription(
  norm: Int16Array,
  maxSymbol: number,
  tableLog: number,
  writer: BitWriter,
): void {
  writer.add(tableLog - 5, 4);
  let remaining = 1 << tableLog;
  let s = 0;
  while (remaining > 0 && s <= maxSymbol) {
    const n = norm[s];
    const value = n + 1; // -1 ("less than one") is written as 0
    const nb = highBit(remaining + 1);
    const maxSmall = (1 << (nb + 1)) - 2 - remaining;
    if (value < maxSmall) writer.add(value, nb);
    else if (value < 1 << nb) writer.add(value, nb + 1);
    else writer.add(value + maxSmall, nb + 1);
    remaining -= n < 0 ? 1 : n;
    s++;
    if (n === 0) {
      // A zero is followed by 2-bit repeat flags counting the further zeros (3 = "and more").
      let run = 0;
      while (s + run <= maxSymbol && norm[s + run] === 0) run++;
      s += run;
      while (run >= 3) {
        writer.add(3, 2);
        run -= 3;
      }
      writer.add(run, 2);
    }
  }
  writer.alignToByte();
}

/** Spreads symbols over the table's states exactly as decoders do (RFC 8878 §4.1.1). */
export function spreadSymbols(norm: Int16Array, maxSymbol: number, tableLog: number): Uint8Array {
  const tableSize = 1 << tableLog;
  const table = new Uint8Array(tableSize);
  let high = tableSize - 1;
  for (let s = 0; s <= maxSymbol; s++) if (norm[s] === -1) table[high--] = s;
  const step = (tableSize >> 1) + (tableSize >> 3) + 3;
  const mask = tableSize - 1;
  let pos = 0;
  for (let s = 0; s <= maxSymbol; s++) {
    const n = norm[s];
    for (let i = 0; i < n; i++) {
      table[pos] = s;
      do pos = (pos + step) & mask;
      while (pos > high);
    }
  }
  return table;
}

/** Builds the encoding table for a distribution. */
export function buildEncodingTable(norm: Int16Array, maxSymbol: number, tableLog: number): FseEncodingTable {
  const tableSize = 1 << tableLog;
  const spread = spreadSymbols(norm, maxSymbol, tableLog);
  const cumul = new Int32Array(maxSymbol + 2);
  for (let s = 0; s <= maxSymbol; s++) {
    const n = norm[s];
    cumul[s + 1] = cumul[s] + (n < 0 ? 1 : n);
  }
  const next = cumul.slice();
  const stateTable = new Uint16Array(tableSize);
  for (let u = 0; u < tableSize; u++) stateTable[next[spread[u]]++] = tableSize + u;
  const deltaNbBits = new Int32Array(maxSymbol + 1);
  const deltaFindState = new Int32Array(maxSymbol + 1);
  for (let s = 0; s <= maxSymbol; s++) {
    const n = norm[s];
    if (n === 0) {
      deltaNbBits[s] = ((tableLog + 1) << 16) - tableSize;
    } else if (n === 1 || n === -1) {
      deltaNbBits[s] = (tableLog << 16) - tableSize;
      deltaFindState[s] = cumul[s] - 1;
    } else {
      const maxBitsOut = tableLog - highBit(n - 1);
      deltaNbBits[s] = (maxBitsOut << 16) - (n << maxBitsOut);
      deltaFindState[s] = cumul[s] - n;
    }
  }
  return { tableLog, stateTable, deltaNbBits, deltaFindState };
}

/** The first encoder state for `symbol` (the cheapest one, as the reference encoder picks). */
export function initialState(table: FseEncodingTable, symbol: number): number {
  const delta = table.deltaNbBits[symbol];
  const nbBits = (delta + (1 << 15)) >> 16;
  const value = (nbBits << 16) - delta;
  return table.stateTable[(value >> nbBits) + table.deltaFindState[symbol]];
}

/** An FSE decoding table, as decoders build it (used to self-check encoded weights). */
export interface FseDecodingTable {
  readonly tableLog: number;
  readonly symbol: Uint8Array;
  readonly nbBits: Uint8Array;
  readonly baseline: Uint16Array;
}

/** Builds the decoding table of a distribution (RFC 8878 §4.1.1). */
export function buildDecodingTable(norm: Int16Array, maxSymbol: number, tableLog: number): FseDecodingTable {
  const tableSize = 1 << tableLog;
  const symbol = spreadSymbols(norm, maxSymbol, tableLog);
  const nbBits = new Uint8Array(tableSize);
  const baseline = new Uint16Array(tableSize);
  const nextState = new Uint16Array(maxSymbol + 1);
  for (let s = 0; s <= maxSymbol; s++) nextState[s] = norm[s] < 0 ? 1 : norm[s];
  for (let u = 0; u < tableSize; u++) {
    const s = symbol[u];
    const ns = nextState[s]++;
    const nb = tableLog - highBit(ns);
    nbBits[u] = nb;
    baseline[u] = (ns << nb) - tableSize;
  }
  return { tableLog, symbol, nbBits, baseline };
}
