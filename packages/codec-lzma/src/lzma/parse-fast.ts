/**
 * Fast parsing (presets 0-3): greedy longest match with one step of lazy evaluation, rep
 * matches preferred when nearly as long, and a preference for closer distances when a
 * farther match is only one byte longer.
 */
import type { LzmaEncoder } from "./encoder.js";
import type { MatchFinder } from "./match-finder.js";
import { MATCH_LEN_MAX } from "./model.js";
import { Parser } from "./parser.js";

/** True when `big` is so much farther than `small` that one byte of length is not worth it. */
function changePair(small: number, big: number): boolean {
  return big >>> 7 > small;
}

/** Greedy + lazy parser. */
export class FastParser extends Parser {
  // Matches found at pos + 1 during the lazy check, reused if a literal is chosen.
  private cachedPos = -1;
  private cachedCount = 0;
  private readonly cachedLens = new Int32Array(MATCH_LEN_MAX + 1);
  private readonly cachedDists = new Int32Array(MATCH_LEN_MAX + 1);

  constructor(enc: LzmaEncoder, mf: MatchFinder, start: number, end: number, niceLen: number) {
    super(enc, mf, start, end, niceLen);
  }

  next(pos: number): void {
    const limit = this.limitAt(pos);
    let count: number;
    let lens: Int32Array;
    let dists: Int32Array;
    if (this.cachedPos === pos) {
      count = this.cachedCount;
      lens = this.cachedLens;
      dists = this.cachedDists;
      this.cachedPos = -1;
    } else {
      this.advanceTo(pos);
      count = this.mf.find(pos);
      this.mfPos = pos + 1;
      lens = this.mf.lens;
      dists = this.mf.dists;
    }
    if (limit < 2) {
      this.emit(pos, 1, -1);
      return;
    }

    const reps = this.enc.reps;
    const nice = this.niceLen;
    let repLen = 0;
    let repIndex = 0;
    for (let i = 0; i < 4; i++) {
      const len = this.repLen(pos, reps[i], limit);
      if (len >= nice) {
        this.emit(pos, len, reps[i]);
        return;
      }
      if (len > repLen) {
        repLen = len;
        repIndex = i;
      }
    }

    let mainLen = count > 0 ? lens[count - 1] : 0;
    let mainDist = count > 0 ? dists[count - 1] : 0;
    if (mainLen >= nice) {
      this.emit(pos, mainLen, mainDist);
      return;
    }
    if (mainLen >= 2) {
      while (count > 1 && mainLen === lens[count - 2] + 1 && changePair(dists[count - 2], mainDist)) {
        count--;
        mainLen = lens[count - 1];
        mainDist = dists[count - 1];
      }
      // A far 2-byte match costs more than two literals.
      if (mainLen === 2 && mainDist >= 0x80) mainLen = 1;
    }

    if (
      repLen >= 2 &&
      (repLen + 1 >= mainLen ||
        (repLen + 2 >= mainLen && mainDist >= 1 << 9) ||
        (repLen + 3 >= mainLen && mainDist >= 1 << 15))
    ) {
      this.emit(pos, repLen, reps[repIndex]);
      return;
    }
    if (mainLen < 2 || limit <= 2) {
      this.emit(pos, 1, -1);
      return;
    }

    // Lazy step: if the next position starts a clearly better match, code a literal now.
    const next = pos + 1;
    const nextCount = this.mf.find(next);
    this.mfPos = next + 1;
    if (nextCount > 0) {
      const ml = this.mf.lens;
      const md = this.mf.dists;
      this.cachedPos = next;
      this.cachedCount = nextCount;
      for (let i = 0; i < nextCount; i++) {
        this.cachedLens[i] = ml[i];
        this.cachedDists[i] = md[i];
      }
      const newLen = ml[nextCount - 1];
      const newDist = md[nextCount - 1];
      if (
        (newLen >= mainLen && newDist < mainDist) ||
        (newLen === mainLen + 1 && !changePair(mainDist, newDist)) ||
        newLen > mainLen + 1 ||
        (newLen + 1 >= mainLen && mainLen >= 3 && changePair(newDist, mainDist))
      ) {
        this.emit(pos, 1, -1);
        return;
      }
    } else {
      this.cachedPos = next;
      this.cachedCount = 0;
    }
    const nextLimit = this.limitAt(next);
    const want = Math.max(mainLen - 1, 2);
    if (nextLimit >= want) {
      for (let i = 0; i < 4; i++) {
        if (this.repLen(next, reps[i], want) >= want) {
          this.emit(pos, 1, -1);
          return;
        }
      }
    }
    this.emit(pos, mainLen, mainDist);
  }

  private emit(pos: number, len: number, dist: number): void {
    this.len = len;
    this.dist = dist;
    if (len > 1) {
      this.cachedPos = -1;
      this.advanceTo(pos + len);
    }
  }
}
