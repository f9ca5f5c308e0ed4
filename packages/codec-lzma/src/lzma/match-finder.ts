/**
 * Match finders for the LZMA encoder: a hash chain (fast presets) and a binary tree (normal
 * presets). Both index 4-byte hashes, with exact 2-byte and hashed 3-byte side tables for
 * short close matches, and report matches as (length, distance) pairs of increasing length.
 *
 * Positions are stored offset by `base` (= the cyclic buffer size) so that 0 means "empty"
 * and an empty slot always looks farther away than the dictionary allows. The ring of
 * per-position links has a power-of-two size so a position's slot is a mask, not a modulo.
 */
import { MATCH_LEN_MAX } from "./model.js";

const HASH2_SIZE = 1 << 16;
const HASH3_BITS = 16;
const GOLDEN = 0x9e3779b1 | 0;

/** Options shared by both finders. */
export interface MatchFinderOptions {
  /** Largest distance + 1 a match may have (the dictionary size). */
  dictSize: number;
  /** Stop searching once a match this long is found. */
  niceLen: number;
  /** Maximum candidates examined per position. */
  depth: number;
}

/** A match finder over `data[start, end)`. Positions must be visited in order, each once. */
export abstract class MatchFinder {
  /** Match lengths of the last `find`, increasing. */
  readonly lens = new Int32Array(MATCH_LEN_MAX + 1);
  /** Match distances (LZMA distances: bytes back minus one) of the last `find`. */
  readonly dists = new Int32Array(MATCH_LEN_MAX + 1);
  protected readonly head2 = new Int32Array(HASH2_SIZE);
  protected readonly head3 = new Int32Array(1 << HASH3_BITS);
  protected readonly head4: Int32Array;
  protected readonly hashShift: number;
  /** Size of the ring of per-position links: a power of two covering the dictionary or the data. */
  protected readonly cyclic: number;
  /** cyclic - 1. */
  protected readonly cyclicMask: number;
  /** Offset added to stored positions so that 0 is "empty". */
  protected readonly base: number;
  /** Largest distance in bytes (distance + 1) a match may have. */
  protected readonly maxDelta: number;
  protected readonly niceLen: number;
  protected readonly depth: number;
  /**
   * words[i] holds the four bytes at start + i (little-endian), so match extension compares
   * four bytes per step and hashing reads one value.
   */
  protected readonly words: Int32Array;

  constructor(
    protected readonly data: Uint8Array,
    protected readonly start: number,
    protected readonly end: number,
    options: MatchFinderOptions,
  ) {
    const size = end - start;
    this.cyclic = 2 ** Math.ceil(Math.log2(Math.max(2, Math.min(options.dictSize + 1, size))));
    this.cyclicMask = this.cyclic - 1;
    this.base = this.cyclic - start;
    this.maxDelta = Math.min(options.dictSize, this.cyclic - 1);
    this.niceLen = Math.min(options.niceLen, MATCH_LEN_MAX);
    this.depth = Math.max(1, options.depth);
    // About half as many hash slots as the window holds bytes, at least 2^12, at most 2^24.
    const window = Math.min(options.dictSize, size);
    const bits = Math.max(12, Math.min(24, Math.ceil(Math.log2(Math.max(window, 2))) - 1));
    this.head4 = new Int32Array(1 << bits);
    this.hashShift = 32 - bits;
    const words = new Int32Array(size);
    const d = data;
    for (let i = 0, p = start; i < size; i++, p++) {
      words[i] = d[p] | (d[p + 1] << 8) | (d[p + 2] << 16) | (d[p + 3] << 24);
    }
    this.words = words;
  }

  /** Finds the matches at `pos` (the next unvisited position) and indexes it; returns their count. */
  abstract find(pos: number): number;

  /** Indexes `count` positions from `pos` without reporting matches. */
  abstract skip(pos: number, count: number): void;

  /**
   * Length of the common prefix of `data[a..]` and `data[b..]` (both inside the window),
   * from `len` up to `limit`: four bytes a step, then byte by byte.
   */
  matchLen(a: number, b: number, len: number, limit: number): number {
    const w = this.words;
    const wa = a - this.start;
    const wb = b - this.start;
    while (len + 4 <= limit && w[wa + len] === w[wb + len]) len += 4;
    const d = this.data;
    while (len < limit && d[a + len] === d[b + len]) len++;
    return len;
  }

  /**
   * Looks up and updates the 2- and 3-byte tables, recording the short matches they give
   * (they find close matches the depth-limited main search could miss). Returns the count.
   */
  protected findShort(pos: number, limit: number): number {
    const d = this.data;
    const b0 = d[pos];
    const b1 = d[pos + 1];
    const h2 = b0 | (b1 << 8);
    const h3 = Math.imul(h2 | (d[pos + 2] << 16), GOLDEN) >>> (32 - HASH3_BITS);
    const stored = pos + this.base;
    const cand2 = this.head2[h2] - this.base;
    const cand3 = this.head3[h3] - this.base;
    this.head2[h2] = stored;
    this.head3[h3] = stored;
    let count = 0;
    let best = 1;
    const delta2 = pos - cand2;
    if (delta2 <= this.maxDelta) {
      // The 2-byte table is exact, so the first two bytes already match.
      best = this.matchLen(cand2, pos, 2, limit);
      this.lens[0] = best;
      this.dists[0] = delta2 - 1;
      count = 1;
    }
    const delta3 = pos - cand3;
    if (cand3 !== cand2 && delta3 <= this.maxDelta && d[cand3] === b0 && d[cand3 + 1] === b1) {
      const len = this.matchLen(cand3, pos, 2, limit);
      if (len > best && len >= 3) {
        this.lens[count] = len;
        this.dists[count] = delta3 - 1;
        count++;
      }
    }
    return count;
  }

  /** The 4-byte hash at `pos`. */
  protected hash4(pos: number): number {
    return Math.imul(this.words[pos - this.start], GOLDEN) >>> this.hashShift;
  }
}

/** Hash-chain match finder: each position links to the previous one with the same hash. */
export class HashChainMatchFinder extends MatchFinder {
  private readonly chain: Int32Array;

  constructor(data: Uint8Array, start: number, end: number, options: MatchFinderOptions) {
    super(data, start, end, options);
    this.chain = new Int32Array(this.cyclic);
  }

  find(pos: number): number {
    const avail = this.end - pos;
    if (avail < 4) return 0;
    const limit = Math.min(avail, MATCH_LEN_MAX);
    let count = this.findShort(pos, limit);
    let best = count > 0 ? this.lens[count - 1] : 1;
    const h = this.hash4(pos);
    const base = this.base;
    const mask = this.cyclicMask;
    const rel = pos - this.start;
    let next = this.head4[h];
    this.head4[h] = pos + base;
    this.chain[rel & mask] = next;
    if (best >= this.niceLen || best === limit) return count;
    const d = this.data;
    const maxDelta = this.maxDelta;
    const lens = this.lens;
    const dists = this.dists;
    const nice = Math.min(this.niceLen, limit);
    for (let depth = this.depth; depth > 0; depth--) {
      const cand = next - base;
      const delta = pos - cand;
      if (delta > maxDelta) break;
      // Cheap rejection: a longer match must agree at the current best length.
      if (d[cand + best] === d[pos + best] && d[cand] === d[pos]) {
        const len = this.matchLen(cand, pos, 1, limit);
        if (len > best) {
          best = len;
          lens[count] = len;
          dists[count] = delta - 1;
          count++;
          if (len >= nice) break;
        }
      }
      const r = cand - this.start;
      next = this.chain[r & mask];
    }
    return count;
  }

  skip(pos: number, count: number): void {
    const stop = Math.min(pos + count, this.end - 3);
    const base = this.base;
    const mask = this.cyclicMask;
    const d = this.data;
    for (; pos < stop; pos++) {
      const h2 = d[pos] | (d[pos + 1] << 8);
      this.head2[h2] = pos + base;
      this.head3[Math.imul(h2 | (d[pos + 2] << 16), GOLDEN) >>> (32 - HASH3_BITS)] = pos + base;
      const h = this.hash4(pos);
      const rel = pos - this.start;
      this.chain[rel & mask] = this.head4[h];
      this.head4[h] = pos + base;
    }
  }
}

/**
 * Binary-tree match finder: the positions sharing a 4-byte hash form a binary search tree
 * ordered by the bytes that follow, so each search walks towards the longest matches and
 * re-roots the tree at the current position.
 */
export class BinaryTreeMatchFinder extends MatchFinder {
  private readonly son: Int32Array;

  constructor(data: Uint8Array, start: number, end: number, options: MatchFinderOptions) {
    super(data, start, end, options);
    this.son = new Int32Array(2 * this.cyclic);
  }

  find(pos: number): number {
    const avail = this.end - pos;
    if (avail < 4) return 0;
    const limit = Math.min(avail, MATCH_LEN_MAX);
    const count = this.findShort(pos, limit);
    return this.walk(pos, Math.min(limit, this.niceLen), count, true);
  }

  skip(pos: number, count: number): void {
    const stop = Math.min(pos + count, this.end - 3);
    const d = this.data;
    const base = this.base;
    for (; pos < stop; pos++) {
      const h2 = d[pos] | (d[pos + 1] << 8);
      this.head2[h2] = pos + base;
      this.head3[Math.imul(h2 | (d[pos + 2] << 16), GOLDEN) >>> (32 - HASH3_BITS)] = pos + base;
      this.walk(pos, Math.min(this.end - pos, MATCH_LEN_MAX, this.niceLen), 0, false);
    }
  }

  /** Inserts `pos` into its tree, reporting matches longer than those already found when `report`. */
  private walk(pos: number, lenLimit: number, count: number, report: boolean): number {
    const d = this.data;
    const son = this.son;
    const base = this.base;
    const mask = this.cyclicMask;
    const start = this.start;
    const maxDelta = this.maxDelta;
    const lens = this.lens;
    const dists = this.dists;
    let best = count > 0 ? lens[count - 1] : 1;
    const h = this.hash4(pos);
    let cur = this.head4[h] - base;
    this.head4[h] = pos + base;
    const rel = pos - start;
    const cp = rel & mask;
    // ptr1: where the next smaller node goes; ptr0: where the next larger node goes.
    let ptr0 = (cp << 1) + 1;
    let ptr1 = cp << 1;
    let len0 = 0;
    let len1 = 0;
    let depth = this.depth;
    for (;;) {
      const delta = pos - cur;
      if (depth-- === 0 || delta > maxDelta) {
        son[ptr0] = 0;
        son[ptr1] = 0;
        return count;
      }
      const r = cur - start;
      const pair = (r & mask) << 1;
      let len = Math.min(len0, len1);
      if (d[cur + len] === d[pos + len]) {
        len = this.matchLen(cur, pos, len + 1, lenLimit);
        if (report && len > best) {
          best = len;
          lens[count] = len;
          dists[count] = delta - 1;
          count++;
        }
        if (len >= lenLimit) {
          // The current position replaces this node: it inherits both subtrees.
          son[ptr1] = son[pair];
          son[ptr0] = son[pair + 1];
          return count;
        }
      }
      if (d[cur + len] < d[pos + len]) {
        son[ptr1] = cur + base;
        ptr1 = pair + 1;
        cur = son[ptr1] - base;
        len1 = len;
      } else {
        son[ptr0] = cur + base;
        ptr0 = pair;
        cur = son[ptr0] - base;
        len0 = len;
      }
    }
  }
}
