/**
 * Sequence decoding and execution (RFC 8878 §3.1.1.3.2 and §3.1.1.4), fused in one
 * loop: each sequence's codes come from three FSE states sharing one backward bitstream,
 * and the sequence is executed at once — its literals copied, its match copied from
 * earlier output — so no sequence list is stored.
 *
 * The bit reader is the one described in huffman.ts, kept in local variables: `w` is a
 * 32-bit word loaded at `p`, `c` the bits already consumed from its top. After a refill
 * at least 25 bits are available; refills happen only where the next fields could need
 * more than what is left.
 */
import { ZstdCorruption } from "./corrupt.js";
import type { FrameState } from "./state.js";

/**
 * Literal runs and matches shorter than this are copied 4 bytes at a time through
 * DataViews; longer ones with `set`/`copyWithin`/`fill`, whose call overhead (tens of
 * ns) only pays off for long runs.
 */
const SHORT_COPY_LIMIT = 256;
/** Room needed past a short copy's end for its over-long 4-byte word copies. */
const WILD_SLACK = 16;

/**
 * Decodes `nbSeq` sequences from the bitstream `src[start..end)` and executes them:
 * literals come from `lit[litPos..litEnd)`, output goes to `out[op..limit)`, and matches
 * may reach back to `windowStart`. Returns the new output position; the repeat offsets
 * and the position of the literals not used by any sequence (`st.litPos`) are kept in `st`.
 */
export function executeSequences(
  st: FrameState,
  src: Uint8Array,
  start: number,
  end: number,
  nbSeq: number,
  lit: Uint8Array,
  litPos: number,
  litEnd: number,
  out: Uint8Array,
  op: number,
  limit: number,
  windowStart: number,
): number {
  // Everything below is int32 (all sizes are < 2^31): say so, so that the compiler keeps
  // these as machine integers rather than tagged numbers.
  start |= 0;
  end |= 0;
  nbSeq |= 0;
  litPos |= 0;
  litEnd |= 0;
  op |= 0;
  limit |= 0;
  windowStart |= 0;
  const llT = st.llTable as Int32Array;
  const mlT = st.mlTable as Int32Array;
  const ofT = st.ofTable as Int32Array;
  if (end <= start) throw new ZstdCorruption("empty sequence bitstream");
  const last = src[end - 1];
  if (last === 0) throw new ZstdCorruption("sequence bitstream without its end mark");

  const srcView = new DataView(src.buffer, src.byteOffset, src.byteLength);
  const outView = new DataView(out.buffer, out.byteOffset, out.byteLength);
  const litView = new DataView(lit.buffer, lit.byteOffset, lit.byteLength);
  // Sequences whose literals end by litWildEnd and whose output ends by outWildEnd are
  // valid and leave room for copies in 4-byte words that run past their end.
  const litWildEnd = Math.min(litEnd, lit.length - WILD_SLACK) | 0;
  const outWildEnd = Math.min(limit, out.length - WILD_SLACK) | 0;

  // Reader state; the first word ends at the last byte, whose top bits are padding.
  let p = (end - 4) | 0;
  let w = srcView.getInt32(p, true);
  let c = (Math.clz32(last) - 23) | 0;
  let b = 0;

  // Initial states: literal lengths, offsets, match lengths (at most 9 bits each).
  let n = st.llLog | 0;
  let llS = (((w << c) >>> 1) >>> (31 - n)) | 0;
  c += n;
  b = c >> 3;
  if (p - b >= start) {
    p -= b;
    c &= 7;
  } else if (p > start) {
    c -= (p - start) << 3;
    p = start;
  }
  w = srcView.getInt32(p, true);
  n = st.ofLog | 0;
  let ofS = (((w << c) >>> 1) >>> (31 - n)) | 0;
  c += n;
  n = st.mlLog | 0;
  let mlS = (((w << c) >>> 1) >>> (31 - n)) | 0;
  c += n;

  let rep1 = st.rep1 | 0;
  let rep2 = st.rep2 | 0;
  let rep3 = st.rep3 | 0;
  let remaining = nbSeq;
  let ll = 0;
  let ml = 0;
  let offset = 0;

  for (;;) {
    // The fast loop decodes sequences and executes the common ones: short copies that
    // fit the bounds with room to spare, offsets ≥ 4. It makes no calls, so the
    // compiler keeps the tables and views checked once. Any other sequence leaves the
    // loop, decoded, and is checked and executed below.
    for (;;) {
      // Refill: afterwards c ≤ 7, so ≥ 25 bits are available.
      b = c >> 3;
      if (p - b >= start) {
        p -= b;
        c &= 7;
      } else if (p > start) {
        c -= (p - start) << 3;
        p = start;
      }
      w = srcView.getInt32(p, true);

      const ofI = ofS << 1;
      const mlI = mlS << 1;
      const llI = llS << 1;
      const ofInfo = ofT[ofI + 1];
      const mlInfo = mlT[mlI + 1];
      const llInfo = llT[llI + 1];

      // Offset extra bits (read first), then match length, then literal length.
      let ofValue = ofT[ofI];
      const ofBits = ofInfo & 0xff;
      if (ofBits !== 0) {
        if (ofBits <= 25) {
          ofValue = (ofValue + ((w << c) >>> (32 - ofBits))) | 0;
          c += ofBits;
        } else {
          // Offsets of 2^26 bytes and more: two reads.
          if (ofBits > 30) throw new ZstdCorruption(`offset code ${ofBits} is too large`);
          n = ofBits - 16;
          ofValue = (ofValue + (((w << c) >>> (32 - n)) << 16)) | 0;
          c += n;
          b = c >> 3;
          if (p - b >= start) {
            p -= b;
            c &= 7;
          } else if (p > start) {
            c -= (p - start) << 3;
            p = start;
          }
          w = srcView.getInt32(p, true);
          ofValue = (ofValue + ((w << c) >>> 16)) | 0;
          c += 16;
        }
      }
      ml = mlT[mlI];
      n = mlInfo & 0xff;
      if (n !== 0) {
        if (c > 16) {
          b = c >> 3;
          if (p - b >= start) {
            p -= b;
            c &= 7;
          } else if (p > start) {
            c -= (p - start) << 3;
            p = start;
          }
          w = srcView.getInt32(p, true);
        }
        ml = (ml + ((w << c) >>> (32 - n))) | 0;
        c += n;
      }
      ll = llT[llI];
      n = llInfo & 0xff;
      if (n !== 0) {
        if (c > 16) {
          b = c >> 3;
          if (p - b >= start) {
            p -= b;
            c &= 7;
          } else if (p > start) {
            c -= (p - start) << 3;
            p = start;
          }
          w = srcView.getInt32(p, true);
        }
        ll = (ll + ((w << c) >>> (32 - n))) | 0;
        c += n;
      }

      // Offset_Value → offset, keeping the repeat offsets (RFC 8878 §3.1.2.5).
      if (ofBits > 1) {
        offset = (ofValue - 3) | 0;
        rep3 = rep2;
        rep2 = rep1;
        rep1 = offset;
      } else {
        // Offset_Value 1..3; shifted by one when the literal length is 0.
        const r = ll === 0 ? ofValue : ofValue - 1;
        if (r === 0) {
          offset = rep1;
        } else if (r === 1) {
          offset = rep2;
          rep2 = rep1;
          rep1 = offset;
        } else if (r === 2) {
          offset = rep3;
          rep3 = rep2;
          rep2 = rep1;
          rep1 = offset;
        } else {
          offset = (rep1 - 1) | 0;
          rep3 = rep2;
          rep2 = rep1;
          rep1 = offset;
        }
      }

      // State updates for the next sequence (none after the last): literal lengths,
      // match lengths, offsets (≤ 9 + 9 + 8 bits).
      if (remaining !== 1) {
        if (c > 14) {
          b = c >> 3;
          if (p - b >= start) {
            p -= b;
            c &= 7;
          } else if (p > start) {
            c -= (p - start) << 3;
            p = start;
          }
          w = srcView.getInt32(p, true);
        }
        n = (llInfo >>> 8) & 0xff;
        llS = ((llInfo >>> 16) + (((w << c) >>> 1) >>> (31 - n))) | 0;
        c += n;
        n = (mlInfo >>> 8) & 0xff;
        mlS = ((mlInfo >>> 16) + (((w << c) >>> 1) >>> (31 - n))) | 0;
        c += n;
        if (c > 24) {
          b = c >> 3;
          if (p - b >= start) {
            p -= b;
            c &= 7;
          } else if (p > start) {
            c -= (p - start) << 3;
            p = start;
          }
          w = srcView.getInt32(p, true);
        }
        n = (ofInfo >>> 8) & 0xff;
        ofS = ((ofInfo >>> 16) + (((w << c) >>> 1) >>> (31 - n))) | 0;
        c += n;
      }

      if (
        (ll | ml) >= SHORT_COPY_LIMIT ||
        offset < 4 ||
        litPos + ll > litWildEnd ||
        op + ll + ml > outWildEnd ||
        offset > op + ll - windowStart
      ) {
        break;
      }
      if (ll !== 0) {
        // 16 bytes unconditionally, then 4 at a time: may write up to 15 bytes past the
        // run, which the match overwrites.
        outView.setInt32(op, litView.getInt32(litPos, true), true);
        outView.setInt32(op + 4, litView.getInt32(litPos + 4, true), true);
        outView.setInt32(op + 8, litView.getInt32(litPos + 8, true), true);
        outView.setInt32(op + 12, litView.getInt32(litPos + 12, true), true);
        for (let k = 16; k < ll; k += 4) outView.setInt32(op + k, litView.getInt32(litPos + k, true), true);
        op += ll;
        litPos += ll;
      }
      // 4 bytes at a time, in order: with offset ≥ 4 every word read is already final, so
      // this also copies overlapping matches. May write up to 15 bytes past the match,
      // into output not produced yet.
      const from = op - offset;
      outView.setInt32(op, outView.getInt32(from, true), true);
      outView.setInt32(op + 4, outView.getInt32(from + 4, true), true);
      if (ml > 8) {
        outView.setInt32(op + 8, outView.getInt32(from + 8, true), true);
        outView.setInt32(op + 12, outView.getInt32(from + 12, true), true);
        for (let k = 16; k < ml; k += 4) outView.setInt32(op + k, outView.getInt32(from + k, true), true);
      }
      op += ml;
      if (--remaining === 0) break;
    }
    if (remaining === 0) break;

    // Any other sequence: checked, then copied with byte loops or the built-ins.
    if (ll > litEnd - litPos) throw new ZstdCorruption("a sequence takes more literals than the block has");
    if (ll + ml > limit - op) throw new ZstdCorruption("block decodes past its size limit");
    if (offset <= 0 || offset > op + ll - windowStart) {
      throw new ZstdCorruption(`match offset ${offset} reaches before the frame's start`);
    }
    if (ll > 32) {
      out.set(lit.subarray(litPos, litPos + ll), op);
    } else {
      for (let k = 0; k < ll; k++) out[op + k] = lit[litPos + k];
    }
    op += ll;
    litPos += ll;
    const from = op - offset;
    if (ml <= 32) {
      for (let k = 0; k < ml; k++) out[op + k] = out[from + k];
    } else if (offset >= ml) {
      out.copyWithin(op, from, from + ml);
    } else if (offset === 1) {
      out.fill(out[from], op, op + ml);
    } else {
      // An overlapping match repeats the `offset`-byte pattern: copy it in doubling chunks.
      let d = op;
      const matchEnd = op + ml;
      while (d < matchEnd) {
        const chunk = Math.min(matchEnd - d, d - from);
        out.copyWithin(d, from, from + chunk);
        d += chunk;
      }
    }
    op += ml;
    if (--remaining === 0) break;
  }

  if ((p - start) * 8 + 32 - c !== 0) throw new ZstdCorruption("sequence bitstream not consumed exactly");
  st.rep1 = rep1;
  st.rep2 = rep2;
  st.rep3 = rep3;

  // The literals left after the last sequence (which end the block) are the caller's to
  // copy: a copy here, reached only after the hot loop, kept this function in a cycle of
  // on-stack-replacement entries and deoptimizations at that copy's never-seen call.
  st.litPos = litPos;
  return op;
}
