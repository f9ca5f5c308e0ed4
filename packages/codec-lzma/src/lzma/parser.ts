/** What every parser shares: the decision it hands out and the match finder's position. */
import type { LzmaEncoder } from "./encoder.js";
import type { MatchFinder } from "./match-finder.js";
import { MATCH_LEN_MAX } from "./model.js";

/** Chooses how the data at each position is coded. */
export abstract class Parser {
  /** Length of the decision made by `next` (1 for a literal or short rep). */
  len = 1;
  /** Distance of the decision made by `next`; -1 for a literal. */
  dist = -1;
  /** Next position the match finder has not indexed yet. */
  protected mfPos: number;

  constructor(
    protected readonly enc: LzmaEncoder,
    protected readonly mf: MatchFinder,
    /** The data window: matches never reach before `start` or past `end`. */
    protected readonly start: number,
    protected readonly end: number,
    protected readonly niceLen: number,
  ) {
    this.mfPos = start;
  }

  /** Decides what to code at `pos` (the position after the previous decision). */
  abstract next(pos: number): void;

  /** Indexes every position before `pos` that is not indexed yet. */
  protected advanceTo(pos: number): void {
    if (this.mfPos < pos) {
      this.mf.skip(this.mfPos, pos - this.mfPos);
      this.mfPos = pos;
    }
  }

  /** Length of the match at `pos` with distance `dist`, 0 if under 2 bytes or out of the window. */
  protected repLen(pos: number, dist: number, limit: number): number {
    const src = pos - dist - 1;
    const d = this.enc.data;
    if (src < this.start || d[src] !== d[pos] || d[src + 1] !== d[pos + 1]) return 0;
    return this.mf.matchLen(src, pos, 2, limit);
  }

  /** Bytes available for a match at `pos`. */
  protected limitAt(pos: number): number {
    return Math.min(this.end - pos, MATCH_LEN_MAX);
  }
}
