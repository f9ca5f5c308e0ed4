/**
 * Price-based parsing (presets 4-9): a shortest-path search over the next few thousand
 * positions where each edge is a literal, short rep, rep match or match, priced from the
 * live probability model. A simplified form of LZMA's "optimum" parser: it tracks state and
 * reps along each path but does not try the literal+rep0 combinations.
 */
import type { LzmaEncoder } from "./encoder.js";
import type { MatchFinder } from "./match-finder.js";
import {
  IS_MATCH,
  IS_REP,
  IS_REP0_LONG,
  IS_REP_G0,
  IS_REP_G1,
  IS_REP_G2,
  LIT_STATES,
  MATCH_LEN,
  MATCH_LEN_MAX,
  REP_LEN,
  stateAfterLiteral,
  stateAfterMatch,
  stateAfterRep,
  stateAfterShortRep,
} from "./model.js";
import { Parser } from "./parser.js";
import {
  BIT_PRICES,
  distSlot,
  INFINITY_PRICE,
  refreshAlignPrices,
  refreshDistPrices,
  refreshLenPrices,
} from "./price.js";

/** Positions one search looks ahead at most. */
const OPTS = 1 << 12;
/** Nodes: the look-ahead plus the longest edge (match + literal + rep0). */
const NODES = OPTS + 2 * MATCH_LEN_MAX + 4;
/** Matches/reps coded between price table refreshes. */
const REFRESH_INTERVAL = 64;

// How a node was reached (one edge may stand for two or three symbols).
const KIND_LITERAL = 0;
const KIND_SHORT_REP = 1;
const KIND_MATCH = 2;
/** KIND_REP + i: rep match with rep i. */
const KIND_REP = 3;
/** A literal, then a rep0 match. */
const KIND_LIT_REP0 = 7;
/** A match (length in nodeAux), a literal, then rep0 (the match's distance). */
const KIND_MATCH_LIT_REP0 = 8;
/** KIND_REP_LIT_REP0 + i: rep i (length in nodeAux), a literal, then rep0. */
const KIND_REP_LIT_REP0 = 9;

function price0(prob: number): number {
  return BIT_PRICES[prob >>> 4];
}

function price1(prob: number): number {
  return BIT_PRICES[(2048 - prob) >>> 4];
}

/** Optimal-ish parser. */
export class OptimalParser extends Parser {
  // The planned decisions, handed out one per `next`.
  private readonly planLen = new Int32Array(NODES);
  private readonly planDist = new Int32Array(NODES);
  private planCount = 0;
  private planIndex = 0;

  // Search nodes: best price to reach each offset, and how.
  private readonly price = new Int32Array(NODES);
  private readonly prev = new Int32Array(NODES);
  private readonly kind = new Uint8Array(NODES);
  private readonly nodeDist = new Int32Array(NODES);
  private readonly nodeState = new Uint8Array(NODES);
  private readonly nodeReps = new Int32Array(NODES * 4);
  /** Length of the first symbol of a combined edge. */
  private readonly nodeAux = new Int32Array(NODES);
  // Result of tryLiteralRep0: the node reached and its price (INFINITY_PRICE if none).
  private comboEnd = 0;
  private comboPrice = INFINITY_PRICE;

  // Matches at the position where the last search stopped early, reused by the next one.
  private cachedPos = -1;
  private cachedCount = 0;
  private readonly cachedLens = new Int32Array(MATCH_LEN_MAX + 1);
  private readonly cachedDists = new Int32Array(MATCH_LEN_MAX + 1);
  private readonly repLens = new Int32Array(4);

  // Price tables.
  private readonly matchLenPrices = new Int32Array(16 * 272);
  private readonly repLenPrices = new Int32Array(16 * 272);
  private readonly slotPrices = new Int32Array(4 * 64);
  private readonly distPrices = new Int32Array(4 * 128);
  private readonly alignPrices = new Int32Array(16);
  private lenRefreshedAt = -REFRESH_INTERVAL;
  private distRefreshedAt = -2 * REFRESH_INTERVAL;

  constructor(enc: LzmaEncoder, mf: MatchFinder, start: number, end: number, niceLen: number) {
    super(enc, mf, start, end, niceLen);
  }

  next(pos: number): void {
    if (this.planIndex >= this.planCount) this.plan(pos);
    this.len = this.planLen[this.planIndex];
    this.dist = this.planDist[this.planIndex];
    this.planIndex++;
  }

  /**
   * Refreshes the price tables from the live model: lengths every REFRESH_INTERVAL coded
   * lengths, distances every 2 * REFRESH_INTERVAL matches (as liblzma does, roughly).
   */
  private refreshPrices(): void {
    const enc = this.enc;
    if (enc.lenSymbols - this.lenRefreshedAt >= REFRESH_INTERVAL) {
      this.lenRefreshedAt = enc.lenSymbols;
      const posStates = 1 << enc.pb;
      refreshLenPrices(enc.probs, MATCH_LEN, posStates, this.niceLen, this.matchLenPrices);
      refreshLenPrices(enc.probs, REP_LEN, posStates, this.niceLen, this.repLenPrices);
    }
    if (enc.matchSymbols - this.distRefreshedAt >= 2 * REFRESH_INTERVAL) {
      this.distRefreshedAt = enc.matchSymbols;
      refreshDistPrices(enc.probs, this.slotPrices, this.distPrices);
      refreshAlignPrices(enc.probs, this.alignPrices);
    }
  }

  /** Price of the literal at `pos` in `state` (matched against the byte at rep0 after a match). */
  private literalPrice(pos: number, state: number, rep0: number): number {
    const probs = this.enc.probs;
    const data = this.enc.data;
    const base = this.enc.literalBase(pos);
    const byte = data[pos];
    let price = 0;
    let node = 1;
    if (state < LIT_STATES) {
      for (let i = 7; i >= 0; i--) {
        const bit = (byte >>> i) & 1;
        const prob = probs[base + node];
        price += bit === 0 ? price0(prob) : price1(prob);
        node = (node << 1) | bit;
      }
    } else {
      const matchByte = data[pos - rep0 - 1];
      let offs = 0x100;
      for (let i = 7; i >= 0; i--) {
        const bit = (byte >>> i) & 1;
        const matchBit = (matchByte >>> i) & 1;
        const prob = probs[base + offs + ((matchBit << 8) & offs) + node];
        price += bit === 0 ? price0(prob) : price1(prob);
        node = (node << 1) | bit;
        if (bit !== matchBit) offs = 0;
      }
    }
    return price;
  }

  /** Price of selecting rep `index` (after is_match=1, is_rep=1), excluding the length. */
  private repPrice(index: number, state: number, posState: number): number {
    const probs = this.enc.probs;
    if (index === 0) return price0(probs[IS_REP_G0 + state]) + price1(probs[IS_REP0_LONG + (state << 4) + posState]);
    let price = price1(probs[IS_REP_G0 + state]);
    if (index === 1) return price + price0(probs[IS_REP_G1 + state]);
    price += price1(probs[IS_REP_G1 + state]);
    return price + (index === 2 ? price0(probs[IS_REP_G2 + state]) : price1(probs[IS_REP_G2 + state]));
  }

  /** Price of a short rep (after is_match=1, is_rep=1). */
  private shortRepPrice(state: number, posState: number): number {
    const probs = this.enc.probs;
    return price0(probs[IS_REP_G0 + state]) + price0(probs[IS_REP0_LONG + (state << 4) + posState]);
  }

  /** Price of a new match's length and distance. */
  private matchPrice(dist: number, len: number, posState: number): number {
    const lenState = len < 6 ? len - 2 : 3;
    const price = this.matchLenPrices[posState * 272 + len - 2];
    if (dist < 128) return price + this.distPrices[lenState * 128 + dist];
    return price + this.slotPrices[lenState * 64 + distSlot(dist)] + this.alignPrices[dist & 15];
  }

  private setPlanSingle(len: number, dist: number): void {
    this.planLen[0] = len;
    this.planDist[0] = dist;
    this.planCount = 1;
    this.planIndex = 0;
  }

  /**
   * State and reps of node `cur`, from the node before it and the edge that reached it.
   * Returns the state (also stored).
   */
  private computeNode(cur: number): number {
    const prev = this.prev[cur];
    const nodeReps = this.nodeReps;
    let st = this.nodeState[prev];
    const fr = prev * 4;
    let r0 = nodeReps[fr];
    let r1 = nodeReps[fr + 1];
    let r2 = nodeReps[fr + 2];
    let r3 = nodeReps[fr + 3];
    const k = this.kind[cur];
    const dist = this.nodeDist[cur];
    if (k === KIND_LITERAL) {
      st = stateAfterLiteral(st);
    } else if (k === KIND_SHORT_REP) {
      st = stateAfterShortRep(st);
    } else if (k === KIND_LIT_REP0) {
      st = stateAfterRep(stateAfterLiteral(st));
    } else {
      // A match, a rep, or one of those followed by a literal and rep0.
      let idx: number;
      if (k === KIND_MATCH || k === KIND_MATCH_LIT_REP0) idx = 4;
      else idx = k >= KIND_REP_LIT_REP0 ? k - KIND_REP_LIT_REP0 : k - KIND_REP;
      st = idx === 4 ? stateAfterMatch(st) : stateAfterRep(st);
      if (idx === 4 || idx === 3) r3 = r2;
      if (idx >= 2) r2 = r1;
      if (idx >= 1) {
        r1 = r0;
        r0 = dist;
      }
      if (k >= KIND_MATCH_LIT_REP0) st = stateAfterRep(stateAfterLiteral(st));
    }
    this.nodeState[cur] = st;
    const cr = cur * 4;
    nodeReps[cr] = r0;
    nodeReps[cr + 1] = r1;
    nodeReps[cr + 2] = r2;
    nodeReps[cr + 3] = r3;
    return st;
  }

  /**
   * After a match/rep of `len` at `curPos` with distance `dist` (reaching state `st` at price
   * `price`): prices one literal and then a rep0 match at the same distance. Sets `comboEnd`
   * (node offset) and `comboPrice` (INFINITY_PRICE when the rep0 would be under 2 bytes).
   */
  private tryLiteralRep0(
    cur: number,
    curPos: number,
    len: number,
    dist: number,
    price: number,
    st: number,
    availFull: number,
  ): void {
    this.comboPrice = INFINITY_PRICE;
    this.comboEnd = cur;
    const litPos = curPos + len;
    const limit = Math.min(availFull - len - 1, this.niceLen);
    if (limit < 2) return;
    const len2 = this.repLen(litPos + 1, dist, limit);
    if (len2 < 2) return;
    const probs = this.enc.probs;
    const posMask = this.enc.posMask;
    const ps = litPos & posMask;
    let p = price + price0(probs[IS_MATCH + (st << 4) + ps]) + this.literalPrice(litPos, st, dist);
    const st2 = stateAfterLiteral(st);
    const ps2 = (litPos + 1) & posMask;
    p +=
      price1(probs[IS_MATCH + (st2 << 4) + ps2]) +
      price1(probs[IS_REP + st2]) +
      this.repPrice(0, st2, ps2) +
      this.repLenPrices[ps2 * 272 + len2 - 2];
    this.comboEnd = cur + len + 1 + len2;
    this.comboPrice = p;
  }

  /** Plans the decisions from `pos` on. */
  private plan(pos: number): void {
    const enc = this.enc;
    const data = enc.data;
    const probs = enc.probs;
    const mf = this.mf;
    const start = this.start;
    const nice = this.niceLen;
    const posMask = enc.posMask;
    this.refreshPrices();

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
      count = mf.find(pos);
      this.mfPos = pos + 1;
      lens = mf.lens;
      dists = mf.dists;
    }
    const limit = this.limitAt(pos);
    if (limit < 2) {
      this.setPlanSingle(1, -1);
      return;
    }

    const state = enc.state;
    const reps = enc.reps;
    const repLens = this.repLens;
    let repMax = 0;
    for (let i = 0; i < 4; i++) {
      repLens[i] = this.repLen(pos, reps[i], limit);
      if (repLens[i] > repLens[repMax]) repMax = i;
    }
    if (repLens[repMax] >= nice) {
      this.setPlanSingle(repLens[repMax], reps[repMax]);
      this.advanceTo(pos + repLens[repMax]);
      return;
    }
    const mainLen = count > 0 ? lens[count - 1] : 0;
    if (mainLen >= nice) {
      this.setPlanSingle(mainLen, dists[count - 1]);
      this.advanceTo(pos + mainLen);
      return;
    }
    const curByte = data[pos];
    const rep0Src = pos - reps[0] - 1;
    const matchByte = rep0Src >= start ? data[rep0Src] : -1;
    // Nothing but a literal (or a far 2-byte match, which practically never beats two
    // literals): skip the search.
    const weakMatch = mainLen < 2 || (mainLen === 2 && dists[count - 1] >= 0x80);
    if (weakMatch && curByte !== matchByte && repLens[repMax] < 2) {
      this.setPlanSingle(1, -1);
      return;
    }

    const price = this.price;
    const prev = this.prev;
    const kind = this.kind;
    const nodeDist = this.nodeDist;
    const nodeState = this.nodeState;
    const nodeReps = this.nodeReps;
    const nodeAux = this.nodeAux;
    nodeState[0] = state;
    for (let i = 0; i < 4; i++) nodeReps[i] = reps[i];

    // Edges from the start node.
    const posState = pos & posMask;
    price[1] = price0(probs[IS_MATCH + (state << 4) + posState]) + this.literalPrice(pos, state, reps[0]);
    prev[1] = 0;
    kind[1] = KIND_LITERAL;
    nodeDist[1] = -1;
    const matchPrice = price1(probs[IS_MATCH + (state << 4) + posState]);
    const repMatchPrice = matchPrice + price1(probs[IS_REP + state]);
    if (matchByte === curByte) {
      const p = repMatchPrice + this.shortRepPrice(state, posState);
      if (p < price[1]) {
        price[1] = p;
        kind[1] = KIND_SHORT_REP;
        nodeDist[1] = reps[0];
      }
    }
    let lenEnd = Math.max(mainLen, repLens[repMax]);
    if (lenEnd < 2) {
      this.setPlanSingle(1, nodeDist[1]);
      return;
    }
    for (let i = 2; i <= lenEnd; i++) price[i] = INFINITY_PRICE;

    for (let i = 0; i < 4; i++) {
      const rl = repLens[i];
      if (rl < 2) continue;
      const base = repMatchPrice + this.repPrice(i, state, posState);
      const row = posState * 272 - 2;
      for (let len = rl; len >= 2; len--) {
        const p = base + this.repLenPrices[row + len];
        if (p < price[len]) {
          price[len] = p;
          prev[len] = 0;
          kind[len] = KIND_REP + i;
          nodeDist[len] = reps[i];
        }
      }
    }
    {
      const normal = matchPrice + price0(probs[IS_REP + state]);
      let len = repLens[0] >= 2 ? repLens[0] + 1 : 2;
      if (len <= mainLen) {
        let mi = 0;
        while (len > lens[mi]) mi++;
        for (;; len++) {
          const dist = dists[mi];
          const p = normal + this.matchPrice(dist, len, posState);
          if (p < price[len]) {
            price[len] = p;
            prev[len] = 0;
            kind[len] = KIND_MATCH;
            nodeDist[len] = dist;
          }
          if (len === lens[mi] && ++mi === count) break;
        }
      }
    }

    // Walk forward: each node is final when reached, so extend the paths from it.
    const data2 = data;
    let cur = 0;
    while (++cur < lenEnd) {
      const st = this.computeNode(cur);
      const cr = cur * 4;
      const r0 = nodeReps[cr];

      const curPos = pos + cur;
      const newCount = mf.find(curPos);
      this.mfPos = curPos + 1;
      const newLen = newCount > 0 ? mf.lens[newCount - 1] : 0;
      if (newLen >= nice || cur >= OPTS - 1) {
        // Stop here: the long match (or the search limit) starts the next search.
        this.cachedPos = curPos;
        this.cachedCount = newCount;
        for (let i = 0; i < newCount; i++) {
          this.cachedLens[i] = mf.lens[i];
          this.cachedDists[i] = mf.dists[i];
        }
        lenEnd = cur;
        break;
      }

      const curPrice = price[cur];
      const availFull = this.limitAt(curPos);
      const ps = curPos & posMask;
      const cb = data2[curPos];
      const src0 = curPos - r0 - 1;
      const mb = src0 >= start ? data2[src0] : -1;

      const litPrice = curPrice + price0(probs[IS_MATCH + (st << 4) + ps]) + this.literalPrice(curPos, st, r0);
      let nextIsLiteral = false;
      if (litPrice < price[cur + 1]) {
        price[cur + 1] = litPrice;
        prev[cur + 1] = cur;
        kind[cur + 1] = KIND_LITERAL;
        nodeDist[cur + 1] = -1;
        nextIsLiteral = true;
      }
      const mp = curPrice + price1(probs[IS_MATCH + (st << 4) + ps]);
      const rmp = mp + price1(probs[IS_REP + st]);
      if (mb === cb && !(prev[cur + 1] === cur && kind[cur + 1] === KIND_SHORT_REP)) {
        const p = rmp + this.shortRepPrice(st, ps);
        if (p <= price[cur + 1]) {
          price[cur + 1] = p;
          prev[cur + 1] = cur;
          kind[cur + 1] = KIND_SHORT_REP;
          nodeDist[cur + 1] = r0;
          nextIsLiteral = false;
        }
      }
      if (availFull < 2) continue;
      const avail = Math.min(availFull, nice);

      // A literal then rep0, when the literal alone did not improve the next node.
      if (!nextIsLiteral && mb !== cb) {
        const len2 = this.repLen(curPos + 1, r0, Math.min(availFull - 1, nice));
        if (len2 >= 2) {
          const st2 = stateAfterLiteral(st);
          const ps2 = (curPos + 1) & posMask;
          const target = cur + 1 + len2;
          while (lenEnd < target) price[++lenEnd] = INFINITY_PRICE;
          const p =
            litPrice +
            price1(probs[IS_MATCH + (st2 << 4) + ps2]) +
            price1(probs[IS_REP + st2]) +
            this.repPrice(0, st2, ps2) +
            this.repLenPrices[ps2 * 272 + len2 - 2];
          if (p < price[target]) {
            price[target] = p;
            prev[target] = cur;
            kind[target] = KIND_LIT_REP0;
            nodeDist[target] = r0;
          }
        }
      }

      let startLen = 2;
      for (let i = 0; i < 4; i++) {
        const dist = nodeReps[cr + i];
        const rl = this.repLen(curPos, dist, avail);
        if (rl < 2) continue;
        while (lenEnd < cur + rl) price[++lenEnd] = INFINITY_PRICE;
        const base = rmp + this.repPrice(i, st, ps);
        const row = ps * 272 - 2;
        for (let len = rl; len >= 2; len--) {
          const p = base + this.repLenPrices[row + len];
          if (p < price[cur + len]) {
            price[cur + len] = p;
            prev[cur + len] = cur;
            kind[cur + len] = KIND_REP + i;
            nodeDist[cur + len] = dist;
          }
        }
        if (i === 0) startLen = rl + 1;
        // The full rep, a literal, then rep0 again.
        this.tryLiteralRep0(cur, curPos, rl, dist, base + this.repLenPrices[row + rl], stateAfterRep(st), availFull);
        if (this.comboEnd > lenEnd) {
          while (lenEnd < this.comboEnd) price[++lenEnd] = INFINITY_PRICE;
        }
        if (this.comboPrice < price[this.comboEnd]) {
          const t = this.comboEnd;
          price[t] = this.comboPrice;
          prev[t] = cur;
          kind[t] = KIND_REP_LIT_REP0 + i;
          nodeDist[t] = dist;
          nodeAux[t] = rl;
        }
      }

      if (newLen >= startLen) {
        const ml = mf.lens;
        const md = mf.dists;
        while (lenEnd < cur + newLen) price[++lenEnd] = INFINITY_PRICE;
        const normal = mp + price0(probs[IS_REP + st]);
        let mi = 0;
        let len = startLen;
        while (len > ml[mi]) mi++;
        for (;; len++) {
          const dist = md[mi];
          const p = normal + this.matchPrice(dist, len, ps);
          if (p < price[cur + len]) {
            price[cur + len] = p;
            prev[cur + len] = cur;
            kind[cur + len] = KIND_MATCH;
            nodeDist[cur + len] = dist;
          }
          if (len === ml[mi]) {
            // The longest length at this distance: also try match + literal + rep0.
            this.tryLiteralRep0(cur, curPos, len, dist, p, stateAfterMatch(st), availFull);
            if (this.comboEnd > lenEnd) {
              while (lenEnd < this.comboEnd) price[++lenEnd] = INFINITY_PRICE;
            }
            if (this.comboPrice < price[this.comboEnd]) {
              const t = this.comboEnd;
              price[t] = this.comboPrice;
              prev[t] = cur;
              kind[t] = KIND_MATCH_LIT_REP0;
              nodeDist[t] = dist;
              nodeAux[t] = len;
            }
            if (++mi === newCount) break;
          }
        }
      }
    }

    // Backtrack from the end node, then store the path front to back (combined edges
    // expand into their two or three decisions).
    let n = 0;
    for (let node = lenEnd; node > 0; node = prev[node]) {
      const k = kind[node];
      n += k === KIND_LIT_REP0 ? 2 : k >= KIND_MATCH_LIT_REP0 ? 3 : 1;
    }
    let i = n;
    const planLen = this.planLen;
    const planDist = this.planDist;
    for (let node = lenEnd; node > 0; node = prev[node]) {
      const k = kind[node];
      const total = node - prev[node];
      const dist = nodeDist[node];
      if (k < KIND_LIT_REP0) {
        i--;
        planLen[i] = total;
        planDist[i] = dist;
      } else if (k === KIND_LIT_REP0) {
        planLen[--i] = total - 1;
        planDist[i] = dist;
        planLen[--i] = 1;
        planDist[i] = -1;
      } else {
        const first = nodeAux[node];
        planLen[--i] = total - first - 1;
        planDist[i] = dist;
        planLen[--i] = 1;
        planDist[i] = -1;
        planLen[--i] = first;
        planDist[i] = dist;
      }
    }
    this.planCount = n;
    this.planIndex = 0;
  }
}
