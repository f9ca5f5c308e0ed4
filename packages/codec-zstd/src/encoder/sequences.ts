/**
 * The `Sequences_Section` of a compressed block (RFC 8878 §3.1.1.3.2): literal-length,
 * match-length and offset codes, each coded with the predefined distribution, a single
 * RLE symbol, or an FSE table built from the block's own statistics (whichever is
 * estimated cheapest), then the interleaved backward-read bitstream.
 */
import { BitWriter } from "./bit-writer.js";
import {
  buildEncodingTable,
  estimateBits,
  type FseEncodingTable,
  initialState,
  normalizeCounts,
  optimalTableLog,
  writeTableDescription,
} from "./fse.js";
import { MAX_BLOCK_SIZE, type SequenceStore } from "./sequence-store.js";
import {
  highBit,
  LL_BASE,
  LL_BITS,
  LL_DEFAULT_LOG,
  LL_DEFAULT_NORM,
  LL_MAX_LOG,
  literalLengthCode,
  MAX_LL,
  MAX_ML,
  MAX_OF,
  ML_BASE,
  ML_BITS,
  ML_DEFAULT_LOG,
  ML_DEFAULT_NORM,
  ML_MAX_LOG,
  matchLengthCode,
  OF_DEFAULT_LOG,
  OF_DEFAULT_NORM,
  OF_MAX_LOG,
} from "./tables.js";

const MODE_PREDEFINED = 0;
const MODE_RLE = 1;
const MODE_COMPRESSED = 2;

const MAX_SEQ_CAPACITY = Math.ceil(MAX_BLOCK_SIZE / 3) + 1;

// The predefined distributions' encoding tables, built once.
const PREDEFINED_LL = buildEncodingTable(LL_DEFAULT_NORM, MAX_LL, LL_DEFAULT_LOG);
const PREDEFINED_ML = buildEncodingTable(ML_DEFAULT_NORM, MAX_ML, ML_DEFAULT_LOG);
const PREDEFINED_OF = buildEncodingTable(OF_DEFAULT_NORM, OF_DEFAULT_NORM.length - 1, OF_DEFAULT_LOG);

/** How one symbol type is coded in a block. */
interface SymbolCoding {
  mode: number;
  /** The table to encode with (unused for RLE). */
  table: FseEncodingTable | undefined;
  /** RLE symbol, or the description bytes for compressed mode. */
  rleSymbol: number;
  description: Uint8Array | undefined;
}

/** Everything the sequence encoder reuses between blocks. */
export class SequenceEncoder {
  private readonly llCode = new Uint8Array(MAX_SEQ_CAPACITY);
  private readonly mlCode = new Uint8Array(MAX_SEQ_CAPACITY);
  private readonly ofCode = new Uint8Array(MAX_SEQ_CAPACITY);
  private readonly llCounts = new Uint32Array(MAX_LL + 1);
  private readonly mlCounts = new Uint32Array(MAX_ML + 1);
  private readonly ofCounts = new Uint32Array(MAX_OF + 1);
  private readonly descScratch = new Uint8Array(256);

  /** Writes the sequences section for `store` at `out[pos]`; returns the end position. */
  write(store: SequenceStore, out: Uint8Array, pos: number): number {
    const nb = store.nbSeq;
    if (nb < 128) {
      out[pos++] = nb;
    } else if (nb < 0x7f00) {
      out[pos++] = (nb >> 8) + 0x80;
      out[pos++] = nb & 0xff;
    } else {
      out[pos++] = 0xff;
      out[pos++] = (nb - 0x7f00) & 0xff;
      out[pos++] = (nb - 0x7f00) >> 8;
    }
    if (nb === 0) return pos;

    const { llCode, mlCode, ofCode, llCounts, mlCounts, ofCounts } = this;
    const { litLength, matchLength, offBase } = store;
    llCounts.fill(0);
    mlCounts.fill(0);
    ofCounts.fill(0);
    let maxLl = 0;
    let maxMl = 0;
    let maxOf = 0;
    for (let i = 0; i < nb; i++) {
      const l = literalLengthCode(litLength[i]);
      const m = matchLengthCode(matchLength[i]);
      const o = highBit(offBase[i]);
      llCode[i] = l;
      mlCode[i] = m;
      ofCode[i] = o;
      llCounts[l]++;
      mlCounts[m]++;
      ofCounts[o]++;
      if (l > maxLl) maxLl = l;
      if (m > maxMl) maxMl = m;
      if (o > maxOf) maxOf = o;
    }
    const ll = this.choose(llCounts, maxLl, nb, PREDEFINED_LL, LL_DEFAULT_NORM, LL_DEFAULT_LOG, LL_MAX_LOG);
    const of = this.choose(ofCounts, maxOf, nb, PREDEFINED_OF, OF_DEFAULT_NORM, OF_DEFAULT_LOG, OF_MAX_LOG);
    const ml = this.choose(mlCounts, maxMl, nb, PREDEFINED_ML, ML_DEFAULT_NORM, ML_DEFAULT_LOG, ML_MAX_LOG);
    out[pos++] = (ll.mode << 6) | (of.mode << 4) | (ml.mode << 2);
    for (const c of [ll, of, ml]) {
      if (c.mode === MODE_RLE) out[pos++] = c.rleSymbol;
      else if (c.mode === MODE_COMPRESSED && c.description !== undefined) {
        out.set(c.description, pos);
        pos += c.description.length;
      }
    }
    return encodeBitstream(store, llCode, mlCode, ofCode, ll.table, ml.table, of.table, out, pos);
  }

  /** Picks the cheapest coding for one symbol type. */
  private choose(
    counts: Uint32Array,
    maxSymbol: number,
    nb: number,
    predefined: FseEncodingTable,
    defaultNorm: Int16Array,
    defaultLog: number,
    maxLog: number,
  ): SymbolCoding {
    if (counts[maxSymbol] === nb) {
      return { mode: MODE_RLE, table: undefined, rleSymbol: maxSymbol, description: undefined };
    }
    const predefinedBits = estimateBits(counts, maxSymbol, defaultNorm, defaultLog);
    const log = optimalTableLog(maxLog, nb, maxSymbol);
    const norm = normalizeCounts(counts, maxSymbol, nb, log);
    const writer = new BitWriter(this.descScratch, 0);
    writeTableDescription(norm, maxSymbol, log, writer);
    const descSize = writer.pos;
    const compressedBits = estimateBits(counts, maxSymbol, norm, log) + descSize * 8;
    if (compressedBits < predefinedBits) {
      return {
        mode: MODE_COMPRESSED,
        table: buildEncodingTable(norm, maxSymbol, log),
        rleSymbol: 0,
        description: this.descScratch.slice(0, descSize),
      };
    }
    return { mode: MODE_PREDEFINED, table: predefined, rleSymbol: 0, description: undefined };
  }
}

/**
 * The interleaved bitstream, written from the last sequence to the first so decoders
 * read it forwards: per sequence the three FSE symbols (offset, match length, literal
 * length) then the extra bits (literal length, match length, offset). A type coded as
 * RLE has no state (zero bits). Returns the end position.
 */
function encodeBitstream(
  store: SequenceStore,
  llCode: Uint8Array,
  mlCode: Uint8Array,
  ofCode: Uint8Array,
  llTable: FseEncodingTable | undefined,
  mlTable: FseEncodingTable | undefined,
  ofTable: FseEncodingTable | undefined,
  out: Uint8Array,
  pos: number,
): number {
  const { litLength, matchLength, offBase } = store;
  const w = new BitWriter(out, pos);
  const last = store.nbSeq - 1;
  let stLl = llTable === undefined ? 0 : initialState(llTable, llCode[last]);
  let stMl = mlTable === undefined ? 0 : initialState(mlTable, mlCode[last]);
  let stOf = ofTable === undefined ? 0 : initialState(ofTable, ofCode[last]);
  let c = llCode[last];
  w.add(litLength[last] - LL_BASE[c], LL_BITS[c]);
  c = mlCode[last];
  w.add(matchLength[last] - ML_BASE[c], ML_BITS[c]);
  c = ofCode[last];
  w.addWide(offBase[last] - (1 << c), c);
  for (let i = last - 1; i >= 0; i--) {
    if (ofTable !== undefined) {
      const s = ofCode[i];
      const nbOut = (stOf + ofTable.deltaNbBits[s]) >> 16;
      w.add(stOf, nbOut);
      stOf = ofTable.stateTable[(stOf >> nbOut) + ofTable.deltaFindState[s]];
    }
    if (mlTable !== undefined) {
      const s = mlCode[i];
      const nbOut = (stMl + mlTable.deltaNbBits[s]) >> 16;
      w.add(stMl, nbOut);
      stMl = mlTable.stateTable[(stMl >> nbOut) + mlTable.deltaFindState[s]];
    }
    if (llTable !== undefined) {
      const s = llCode[i];
      const nbOut = (stLl + llTable.deltaNbBits[s]) >> 16;
      w.add(stLl, nbOut);
      stLl = llTable.stateTable[(stLl >> nbOut) + llTable.deltaFindState[s]];
    }
    c = llCode[i];
    w.add(litLength[i] - LL_BASE[c], LL_BITS[c]);
    c = mlCode[i];
    w.add(matchLength[i] - ML_BASE[c], ML_BITS[c]);
    c = ofCode[i];
    w.addWide(offBase[i] - (1 << c), c);
  }
  if (mlTable !== undefined) w.add(stMl, mlTable.tableLog);
  if (ofTable !== undefined) w.add(stOf, ofTable.tableLog);
  if (llTable !== undefined) w.add(stLl, llTable.tableLog);
  return w.close();
}
