/**
 * tANS decoding tables. pcodec spreads each bin's `weight` states over the table with a
 * fixed odd stride near 3/5 of its size, then decodes state by state: a state names a
 * bin, how many bits to read, and the base of the next state.
 */

/** The decoding table of one latent variable: one entry per state. */
export interface AnsDecoder {
  /** Bin index each state decodes to. */
  symbol: Uint16Array;
  /** Bits to read after the state. */
  bitsToRead: Uint8Array;
  /** Next state, before adding the bits read. */
  nextBase: Uint16Array;
}

/** pcodec's stride: an odd number near 3/5 of the table, so rare bins spread evenly. */
function stride(tableSize: number): number {
  const s = Math.floor((3 * tableSize) / 5);
  return s % 2 === 0 ? s + 1 : s;
}

/**
 * Builds the decoding table for bins of `weights` (which add up to `2^sizeLog`; the
 * chunk metadata reader checked that). No bins at all stand for one bin of weight 1.
 */
export function buildAnsDecoder(sizeLog: number, weights: Uint32Array): AnsDecoder {
  const w = weights.length === 0 ? Uint32Array.of(1) : weights;
  const tableSize = 1 << sizeLog;
  const mask = tableSize - 1;
  const stateSymbols = new Uint16Array(tableSize);
  const step = stride(tableSize);
  let k = 0;
  for (let symbol = 0; symbol < w.length; symbol++) {
    for (let j = 0; j < w[symbol]; j++) {
      stateSymbols[(step * k) & mask] = symbol;
      k++;
    }
  }
  const symbol = new Uint16Array(tableSize);
  const bitsToRead = new Uint8Array(tableSize);
  const nextBase = new Uint16Array(tableSize);
  // x_s of Duda's paper: each bin's next state counter, starting at its weight.
  const xs = Uint32Array.from(w);
  for (let state = 0; state < tableSize; state++) {
    const s = stateSymbols[state];
    const x = xs[s]++;
    const bits = Math.clz32(x) - Math.clz32(tableSize);
    symbol[state] = s;
    bitsToRead[state] = bits;
    nextBase[state] = x * 2 ** bits - tableSize;
  }
  return { symbol, bitsToRead, nextBase };
}
