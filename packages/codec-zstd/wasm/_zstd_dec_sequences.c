// Sequence decoding and execution (RFC 8878 §3.1.1.3.2 and §3.1.1.4), fused in one loop as
// src/decoder/sequences.ts does: each sequence's codes come from three FSE states sharing one
// backward bitstream, and the sequence is executed at once (its literals copied, then its
// match copied from earlier output), so no sequence list is stored.
//
// The fast path copies 16 bytes at a time and may run up to 15 bytes past a copy's end: it is
// taken only when that stays inside the literals and the output span; the output past a
// copy's end is overwritten by what follows. Sequences near the end of the span take the
// exact path.
#pragma once
#include "_zstd_dec_common.c"
#include "_zstd_dec_fse.c"

// Room a wild copy may use past its end.
#define ZD_WILD 16

typedef struct {
  u32 rep[3];  // Repeated_Offset1..3
} ZdRepeats;

// The output of a sequence run.
typedef struct {
  u32 op;        // output position after the last sequence
  u32 lit_pos;   // literals not used by any sequence start here
} ZdSeqResult;

// Swizzle indexes repeating the first `offset` bytes of a 16-byte load (offsets 1..15).
static const u8 zd_pattern_index[16][16] = {
    {0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1},
    {0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0},
    {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3},
    {0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0},
    {0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3},
    {0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1},
    {0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 1, 2, 3, 4, 5, 6},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 1, 2, 3, 4},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 1, 2, 3},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, 1, 2},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 0, 1},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0},
};

// Copies n bytes 16 at a time (up to 15 more are written and read).
static inline void zd_wild_copy(u8* dst, const u8* src, u32 n) {
  u32 k = 0;
  do {
    wasm_v128_store(dst + k, wasm_v128_load(src + k));
    k += 16;
  } while (k < n);
}

// Copies a match of n bytes from `offset` bytes back, 16 at a time (up to 15 more are
// written; the source never passes dst's start + n).
static inline void zd_wild_match(u8* dst, u32 offset, u32 n) {
  const u8* from = dst - offset;
  if (offset >= 16) {
    zd_wild_copy(dst, from, n);
    return;
  }
  // Overlapping: the first `offset` bytes repeat. One vector holds the pattern; stores step by
  // the largest multiple of `offset` that fits 16 bytes, so every store starts in phase.
  v128_t pattern = wasm_i8x16_swizzle(wasm_v128_load(from), wasm_v128_load(zd_pattern_index[offset]));
  u32 step = 16 - 16 % offset;
  u32 k = 0;
  do {
    wasm_v128_store(dst + k, pattern);
    k += step;
  } while (k < n);
}

// Decodes n_seq sequences from the bitstream src[start..end) with the tables ll_t, of_t, ml_t
// (logs ll_log, of_log, ml_log) and executes them: literals come from lit[lit_pos..lit_end)
// (lit_wild_end: the end of what may be read by wild copies), output goes to dst[op..limit)
// (dst_cap: the end of what may be written by wild copies), matches may reach back to
// window_start. Returns 0 or an error code.
static int zd_execute_sequences(const u8* src, i32 start, i32 end, u32 n_seq, const ZdFseEntry* ll_t, u32 ll_log,
                                const ZdFseEntry* of_t, u32 of_log, const ZdFseEntry* ml_t, u32 ml_log, const u8* lit,
                                u32 lit_pos, u32 lit_end, u32 lit_wild_end, u8* dst, u32 op, u32 limit, u32 dst_cap,
                                u32 window_start, ZdRepeats* reps, ZdSeqResult* result) {
  ZdBits b;
  int err = zd_bits_init(&b, src, start, end, ZD_E_SEQ_STREAM_EMPTY, ZD_E_SEQ_STREAM_NO_MARK);
  if (err != 0) return err;
  u32 ll_s = zd_bits_read(&b, ll_log);
  zd_bits_refill(&b, src);
  u32 of_s = zd_bits_read(&b, of_log);
  u32 ml_s = zd_bits_read(&b, ml_log);

  u32 rep1 = reps->rep[0], rep2 = reps->rep[1], rep3 = reps->rep[2];
  // Sequences ending by these bounds may use wild copies.
  u32 out_wild_end = dst_cap >= ZD_WILD ? dst_cap - ZD_WILD : 0;
  if (limit < out_wild_end) out_wild_end = limit;
  if (lit_end < lit_wild_end) lit_wild_end = lit_end;

  for (u32 remaining = n_seq; remaining != 0; remaining--) {
    zd_bits_refill(&b, src);
    const ZdFseEntry of_e = of_t[of_s];
    const ZdFseEntry ml_e = ml_t[ml_s];
    const ZdFseEntry ll_e = ll_t[ll_s];

    // Offset extra bits (read first), then match length, then literal length.
    u32 of_bits = of_e.extra;
    if (of_bits > 30) return ZD_E_OFFSET_CODE;
    u32 of_value = of_e.base + zd_bits_read(&b, of_bits);
    if (b.used > 32) zd_bits_refill(&b, src);
    u32 ml = ml_e.base + zd_bits_read(&b, ml_e.extra);
    u32 ll = ll_e.base + zd_bits_read(&b, ll_e.extra);

    // Offset_Value to offset, keeping the repeat offsets (RFC 8878 §3.1.2.5).
    u32 offset;
    if (of_bits > 1) {
      offset = of_value - 3;
      rep3 = rep2;
      rep2 = rep1;
      rep1 = offset;
    } else {
      // Offset_Value 1..3; shifted by one when the literal length is 0.
      u32 r = ll == 0 ? of_value : of_value - 1;
      if (r == 0) {
        offset = rep1;
      } else if (r == 1) {
        offset = rep2;
        rep2 = rep1;
        rep1 = offset;
      } else if (r == 2) {
        offset = rep3;
        rep3 = rep2;
        rep2 = rep1;
        rep1 = offset;
      } else {
        offset = rep1 - 1;
        rep3 = rep2;
        rep2 = rep1;
        rep1 = offset;
      }
    }

    // State updates for the next sequence (none after the last): literal lengths, match
    // lengths, offsets (<= 9 + 9 + 8 bits).
    if (remaining != 1) {
      if (b.used > 64 - 26) zd_bits_refill(&b, src);
      ll_s = ll_e.next + zd_bits_read(&b, ll_e.nb);
      ml_s = ml_e.next + zd_bits_read(&b, ml_e.nb);
      of_s = of_e.next + zd_bits_read(&b, of_e.nb);
    }

    // Lengths are < 2^17 each, so these sums cannot wrap.
    u32 lit_stop = lit_pos + ll;
    u32 match_at = op + ll;
    u32 out_stop = match_at + ml;
    if (lit_stop <= lit_wild_end && out_stop <= out_wild_end && offset - 1 < match_at - window_start) {
      zd_wild_copy(dst + op, lit + lit_pos, ll);
      zd_wild_match(dst + match_at, offset, ml);
    } else {
      // Exact copies, after the checks.
      if (lit_stop > lit_end) return ZD_E_SEQ_LITERALS;
      if (out_stop > limit) return ZD_E_PAST_BLOCK_LIMIT;
      if (offset == 0 || offset > match_at - window_start) return ZD_E_SEQ_OFFSET;
      __builtin_memcpy(dst + op, lit + lit_pos, ll);
      u8* d = dst + match_at;
      const u8* from = d - offset;
      if (offset >= ml) {
        __builtin_memcpy(d, from, ml);
      } else {
        for (u32 k = 0; k < ml; k++) d[k] = from[k];
      }
    }
    lit_pos = lit_stop;
    op = out_stop;
  }
  if (zd_bits_left(&b) != 0) return ZD_E_SEQ_NOT_CONSUMED;
  reps->rep[0] = rep1;
  reps->rep[1] = rep2;
  reps->rep[2] = rep3;
  result->op = op;
  result->lit_pos = lit_pos;
  return 0;
}
