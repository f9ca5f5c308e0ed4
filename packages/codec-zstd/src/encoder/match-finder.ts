/**
 * LZ77 match finding for the zstd encoder. Two strategies share this class:
 * - fast: one hash-table candidate per position plus the most recent repeat offset,
 *   skipping ahead faster the longer no match is found (levels ≤ 1);
 * - chain: hash chains searched `searchDepth` deep, repeat offsets tried first, with
 *   greedy or lazy (one or two positions ahead) match selection (levels ≥ 2).
 * Matches are scored by zstd's rule of thumb: 4 points per byte matched minus the bits
 * the offset costs, so a nearby or repeated offset beats a slightly longer distant one.
 * The finder spans the whole input (later blocks reference earlier ones) and keeps the
 * repeat-offset history the decoder will have.
 */
import type { LevelParams } from "./levels.js";
import type { SequenceStore } from "./sequence-store.js";
import { highBit } from "./tables.js";

const MIN_MATCH = 4;
const HASH_MULTIPLIER = 0x9e3779b1;

/** Finds the sequences of each block of one input. */
export class MatchFinder {
  private readonly src: Uint8Array;
  private readonly params: LevelParams;
  /** Most recent position + 1 for each hash (0 = empty). */
  private readonly head: Int32Array;
  /** Previous position + 1 with the same hash, indexed by position & chainMask. */
  private readonly chain: Int32Array;
  private readonly hashShift: number;
  private readonly chainMask: number;
  private readonly chainSize: number;
  /** Largest offset allowed (window size − 1). */
  private readonly maxDistance: number;
  /** Positions below this are already in the hash chains. */
  private nextToUpdate = 0;
  // Result of the last search.
  private foundLength = 0;
  private foundOffset = 0;
  private foundGain = 0;
  /** The repeat-offset history as the decoder will see it. */
  rep0 = 1;
  rep1 = 4;
  rep2 = 8;

  constructor(src: Uint8Array, params: LevelParams, windowSize: number) {
    this.src = src;
    this.params = params;
    this.maxDistance = windowSize - 1;
    // Tables no larger than the input needs: small chunks stay cheap to set up.
    const inputLog = Math.max(8, Math.ceil(Math.log2(Math.max(src.length, 1))));
    const hashLog = Math.min(params.hashLog, inputLog + 1);
    this.head = new Int32Array(1 << hashLog);
    this.hashShift = 32 - hashLog;
    const chainLog = params.chainLog === 0 ? 0 : Math.min(params.chainLog, inputLog);
    this.chainSize = chainLog === 0 ? 0 : 1 << chainLog;
    this.chainMask = this.chainSize - 1;
    this.chain = new Int32Array(this.chainSize);
  }

  /** Appends the sequences and literals of `src[start..end)` to `store`. */
  findSequences(start: number, end: number, store: SequenceStore): void {
    const anchor = this.chainSize === 0 ? this.fast(start, end, store) : this.lazy(start, end, store);
    // Trailing literals close the block.
    this.copyLiterals(store, anchor, end);
  }

  private hash(i: number): number {
    const s = this.src;
    return Math.imul(s[i] | (s[i + 1] << 8) | (s[i + 2] << 16) | (s[i + 3] << 24), HASH_MULTIPLIER) >>> this.hashShift;
  }

  /** Length of the common run of src[a..] and src[b..], at most `max`. */
  private count(a: number, b: number, max: number): number {
    const s = this.src;
    let k = 0;
    while (k < max && s[a + k] === s[b + k]) k++;
    return k;
  }

  private equal4(a: number, b: number): boolean {
    const s = this.src;
    return s[a] === s[b] && s[a + 1] === s[b + 1] && s[a + 2] === s[b + 2] && s[a + 3] === s[b + 3];
  }

  /** The fast strategy; returns the anchor (start of the pending literals). */
  private fast(start: number, end: number, store: SequenceStore): number {
    const src = this.src;
    const head = this.head;
    const maxDistance = this.maxDistance;
    const step = this.params.step;
    const ilimit = end - MIN_MATCH;
    const hashLimit = src.length - 4;
    let ip = start;
    let anchor = start;
    while (ip <= ilimit) {
      const ll = ip - anchor;
      const repOffset = ll > 0 ? this.rep0 : this.rep1;
      const h = this.hash(ip);
      const candidate = head[h] - 1;
      head[h] = ip + 1;
      let offset = 0;
      if (repOffset <= ip && repOffset <= maxDistance && this.equal4(ip - repOffset, ip)) {
        offset = repOffset;
      } else if (candidate >= 0 && ip - candidate <= maxDistance && this.equal4(candidate, ip)) {
        offset = ip - candidate;
      } else {
        ip += step + ((ip - anchor) >> 7);
        continue;
      }
      let length = MIN_MATCH + this.count(ip - offset + MIN_MATCH, ip + MIN_MATCH, end - ip - MIN_MATCH);
      // Extend backwards over literals that also match.
      while (ip > anchor && ip - offset > 0 && src[ip - 1] === src[ip - offset - 1]) {
        ip--;
        length++;
      }
      this.emit(store, anchor, ip, length, offset);
      const matchStart = ip;
      ip += length;
      anchor = ip;
      // Seed the table inside the match so the next data can refer to it.
      if (matchStart + 2 < ip && matchStart + 2 <= hashLimit) head[this.hash(matchStart + 2)] = matchStart + 3;
      if (ip - 2 > matchStart && ip - 2 <= hashLimit) head[this.hash(ip - 2)] = ip - 1;
    }
    return anchor;
  }

  /** Greedy or lazy matching over hash chains; returns the anchor. */
  private lazy(start: number, end: number, store: SequenceStore): number {
    const src = this.src;
    const depth = this.params.lazyDepth;
    const ilimit = end - MIN_MATCH;
    let ip = start;
    let anchor = start;
    while (ip <= ilimit) {
      this.search(ip, ip - anchor, end);
      if (this.foundLength < MIN_MATCH) {
        ip += 1 + ((ip - anchor) >> 8);
        continue;
      }
      let length = this.foundLength;
      let offset = this.foundOffset;
      let gain = this.foundGain;
      // Lazy evaluation: a better match one or two bytes later wins over this one.
      while (depth > 0 && ip + 1 <= ilimit) {
        this.search(ip + 1, ip + 1 - anchor, end);
        if (this.foundLength >= MIN_MATCH && this.foundGain > gain + 4) {
          ip += 1;
          length = this.foundLength;
          offset = this.foundOffset;
          gain = this.foundGain;
          continue;
        }
        if (depth > 1 && ip + 2 <= ilimit) {
          this.search(ip + 2, ip + 2 - anchor, end);
          if (this.foundLength >= MIN_MATCH && this.foundGain > gain + 7) {
            ip += 2;
            length = this.foundLength;
            offset = this.foundOffset;
            gain = this.foundGain;
            continue;
          }
        }
        break;
      }
      while (ip > anchor && ip - offset > 0 && src[ip - 1] === src[ip - offset - 1]) {
        ip--;
        length++;
      }
      this.emit(store, anchor, ip, length, offset);
      ip += length;
      anchor = ip;
    }
    return anchor;
  }

  /** Adds positions [nextToUpdate, target) to the hash chains. */
  private insertUpTo(target: number): void {
    const head = this.head;
    const chain = this.chain;
    const mask = this.chainMask;
    const last = Math.min(target, this.src.length - 4 + 1);
    for (let i = this.nextToUpdate; i < last; i++) {
      const h = this.hash(i);
      chain[i & mask] = head[h];
      head[h] = i + 1;
    }
    if (target > this.nextToUpdate) this.nextToUpdate = target;
  }

  /**
   * Best match at `ip` (with `ll` pending literals) among the repeat offsets and the hash
   * chain; sets foundLength (0 if none), foundOffset and foundGain.
   */
  private search(ip: number, ll: number, end: number): void {
    const src = this.src;
    const maxLength = end - ip;
    const maxDistance = this.maxDistance;
    let bestLength = 0;
    let bestOffset = 0;
    let bestGain = Number.NEGATIVE_INFINITY;

    // Repeat offsets: with pending literals codes 1..3 mean rep0..rep2; right after a
    // match they mean rep1, rep2 and rep0 - 1.
    for (let code = 1; code <= 3; code++) {
      const offset =
        ll > 0
          ? code === 1
            ? this.rep0
            : code === 2
              ? this.rep1
              : this.rep2
          : code === 1
            ? this.rep1
            : code === 2
              ? this.rep2
              : this.rep0 - 1;
      if (offset < 1 || offset > ip || offset > maxDistance || !this.equal4(ip - offset, ip)) continue;
      const length = MIN_MATCH + this.count(ip - offset + MIN_MATCH, ip + MIN_MATCH, maxLength - MIN_MATCH);
      const gain = length * 4 - (code === 1 ? 0 : 1);
      if (gain > bestGain) {
        bestGain = gain;
        bestLength = length;
        bestOffset = offset;
      }
    }

    // Hash chain.
    this.insertUpTo(ip);
    const h = this.hash(ip);
    let candidate = this.head[h] - 1;
    if (this.nextToUpdate === ip) {
      this.chain[ip & this.chainMask] = this.head[h];
      this.head[h] = ip + 1;
      this.nextToUpdate = ip + 1;
    }
    if (bestLength < maxLength) {
      const low = Math.max(0, ip - maxDistance);
      // Chain slots of positions older than this may have been reused.
      const chainLow = ip - this.chainSize + 1;
      const target = this.params.targetLength;
      let attempts = this.params.searchDepth;
      let chainBest = MIN_MATCH - 1;
      while (candidate >= low && candidate < ip && attempts-- > 0) {
        if (src[candidate + chainBest] === src[ip + chainBest] && this.equal4(candidate, ip)) {
          const length = MIN_MATCH + this.count(candidate + MIN_MATCH, ip + MIN_MATCH, maxLength - MIN_MATCH);
          if (length > chainBest) {
            chainBest = length;
            const gain = length * 4 - highBit(ip - candidate + 3);
            if (gain > bestGain) {
              bestGain = gain;
              bestLength = length;
              bestOffset = ip - candidate;
            }
            if (length >= target || length === maxLength) break;
          }
        }
        if (candidate < chainLow) break;
        const next = this.chain[candidate & this.chainMask] - 1;
        if (next >= candidate) break;
        candidate = next;
      }
    }
    this.foundLength = bestLength;
    this.foundOffset = bestOffset;
    this.foundGain = bestGain;
  }

  private copyLiterals(store: SequenceStore, from: number, to: number): void {
    const n = to - from;
    if (n <= 0) return;
    const lits = store.literals;
    let p = store.nbLiterals;
    if (n > 32) {
      lits.set(this.src.subarray(from, to), p);
      p += n;
    } else {
      const src = this.src;
      for (let i = from; i < to; i++) lits[p++] = src[i];
    }
    store.nbLiterals = p;
  }

  /** Records one sequence and updates the repeat-offset history exactly as decoders do. */
  private emit(store: SequenceStore, anchor: number, ip: number, length: number, offset: number): void {
    const ll = ip - anchor;
    this.copyLiterals(store, anchor, ip);
    let offBase: number;
    if (ll > 0) {
      if (offset === this.rep0) offBase = 1;
      else if (offset === this.rep1) {
        offBase = 2;
        this.rep1 = this.rep0;
        this.rep0 = offset;
      } else if (offset === this.rep2) {
        offBase = 3;
        this.rep2 = this.rep1;
        this.rep1 = this.rep0;
        this.rep0 = offset;
      } else {
        offBase = offset + 3;
        this.rep2 = this.rep1;
        this.rep1 = this.rep0;
        this.rep0 = offset;
      }
    } else if (offset === this.rep1) {
      offBase = 1;
      this.rep1 = this.rep0;
      this.rep0 = offset;
    } else {
      offBase = offset === this.rep2 ? 2 : offset === this.rep0 - 1 ? 3 : offset + 3;
      this.rep2 = this.rep1;
      this.rep1 = this.rep0;
      this.rep0 = offset;
    }
    const i = store.nbSeq++;
    store.litLength[i] = ll;
    store.matchLength[i] = length;
    store.offBase[i] = offBase;
  }
}
