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

// Room a wild copy may use past its end: copies go 32 bytes at a time.
#define ZD_WILD 32

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

// Copies n bytes, 32 at a time (up to 31 more are read and written): most literal runs and
// matches take the first 32 bytes alone, with no loop.
static inline void zd_wild_copy(u8* dst, const u8* src, u32 n) {
  wasm_v128_store(dst, wasm_v128_load(src));
  wasm_v128_store(dst + 16, wasm_v128_load(src + 16));
#pragma clang loop unroll(disable)
  for (u32 k = 32; k < n; k += 32) {
    wasm_v128_store(dst + k, wasm_v128_load(src + k));
    wasm_v128_store(dst + k + 16, wasm_v128_load(src + k + 16));
  }
}

// Bytes between stores of an offset's pattern: the largest multiple of the offset <= 16.
static const u8 zd_pattern_step[16] = {0, 16, 16, 15, 16, 15, 12, 14, 16, 9, 10, 11, 12, 13, 14, 15};

// Copies a match of n bytes from `offset` bytes back (up to 31 more are written; the source
// never passes dst's start + n).
static inline void zd_wild_match(u8* dst, u32 offset, u32 n) {
  const u8* from = dst - offset;
  if (offset >= 16) {
    // 16-byte steps read only bytes already final: each load ends at most at the last store's end.
    zd_wild_copy(dst, from, n);
    return;
  }
  // Overlapping: the first `offset` bytes repeat. One vector holds the pattern; stores step by
  // the largest multiple of `offset` that fits 16 bytes, so every store starts in phase.
  v128_t pattern = wasm_i8x16_swizzle(wasm_v128_load(from), wasm_v128_load(zd_pattern_index[offset]));
  u32 step = zd_pattern_step[offset];
  wasm_v128_store(dst, pattern);
  wasm_v128_store(dst + step, pattern);
#pragma clang loop unroll(disable)
  for (u32 k = 2 * step; k < n; k += step) wasm_v128_store(dst + k, pattern);
}

// Where a run of sequences stands: the repeat offsets, the next literal, the next output byte.
// Pointers rather than offsets from a base, so the loops keep fewer values in registers.
typedef struct {
  u32 rep1, rep2, rep3;
  const u8* lit;
  u8* out;
} ZdExec;

// What bounds a run's copies: literals end at lit_end (wild copies may read up to
// lit_wild_end), output at out_end (wild copies may write up to out_wild_end), matches may
// reach back to window.
typedef struct {
  const u8* lit_end;
  const u8* lit_wild_end;
  u8* out_end;
  u8* out_wild_end;
  const u8* window;
} ZdCopyBounds;

// Executes one sequence (its Offset_Value, literal and match lengths): turns the offset
// value into an offset, keeping the repeat offsets (RFC 8878 §3.1.2.5), copies the literals
// then the match. Bounds are checked once per sequence; returns 0 or an error code.
static inline __attribute__((always_inline)) int zd_execute_one(ZdExec* x, const ZdCopyBounds* c, u32 of_value, u32 ll,
                                                                u32 ml) {
  u32 offset;
  if (of_value > 3) {
    offset = of_value - 3;
    x->rep3 = x->rep2;
    x->rep2 = x->rep1;
    x->rep1 = offset;
  } else {
    // Offset_Value 1..3; shifted by one when the literal length is 0.
    u32 r = of_value - (ll != 0);
    if (r == 0) {
      offset = x->rep1;
    } else if (r == 1) {
      offset = x->rep2;
      x->rep2 = x->rep1;
      x->rep1 = offset;
    } else if (r == 2) {
      offset = x->rep3;
      x->rep3 = x->rep2;
      x->rep2 = x->rep1;
      x->rep1 = offset;
    } else {
      offset = x->rep1 - 1;
      x->rep3 = x->rep2;
      x->rep2 = x->rep1;
      x->rep1 = offset;
    }
  }
  // Lengths are < 2^17 each and every pointer is inside the 4 GiB memory with room for them:
  // these sums cannot wrap.
  const u8* lit = x->lit;
  u8* out = x->out;
  const u8* lit_stop = lit + ll;
  u8* match = out + ll;
  u8* out_stop = match + ml;
  if (lit_stop <= c->lit_wild_end && out_stop <= c->out_wild_end && offset - 1 < (u32)(match - c->window)) {
    zd_wild_copy(out, lit, ll);
    zd_wild_match(match, offset, ml);
  } else {
    // Exact copies, after the checks.
    if (lit_stop > c->lit_end) return ZD_E_SEQ_LITERALS;
    if (out_stop > c->out_end) return ZD_E_PAST_BLOCK_LIMIT;
    if (offset == 0 || offset > (u32)(match - c->window)) return ZD_E_SEQ_OFFSET;
    __builtin_memcpy(out, lit, ll);
    const u8* from = match - offset;
    if (offset >= ml) {
      __builtin_memcpy(match, from, ml);
    } else {
      for (u32 k = 0; k < ml; k++) match[k] = from[k];
    }
  }
  x->lit = lit_stop;
  x->out = out_stop;
  return 0;
}

// A sequence table entry as one 64-bit load (ZdFseEntry's little-endian layout): code base in
// bits 0..31, extra bits 32..39, state bits 40..47, next state base 48..63.
static inline u64 zd_entry(const ZdFseEntry* t, u32 state) { return zd_load64((const u8*)(t + state)); }
#define ZD_E_BASE(e) ((u32)(e))
#define ZD_E_EXTRA(e) ((u32)((e) >> 32) & 0xff)
#define ZD_E_NB(e) ((u32)((e) >> 40) & 0xff)
#define ZD_E_NEXT(e) ((u32)((e) >> 48))

// Decodes n_seq sequences from the bitstream src[start..end) with the tables ll_t, of_t, ml_t
// (logs ll_log, of_log, ml_log) and executes them: literals come from lit[lit_pos..lit_end)
// (lit_wild_end: the end of what may be read by wild copies), output goes to dst[op..limit)
// (dst_cap: the end of what may be written by wild copies), matches may reach back to
// window_start. Returns 0 or an error code. Kept out of line: its own function gets the
// registers to itself.
static __attribute__((noinline)) int zd_execute_sequences(const u8* src, i32 start, i32 end, u32 n_seq,
                                                          const ZdFseEntry* ll_t, u32 ll_log, const ZdFseEntry* of_t,
                                                          u32 of_log, const ZdFseEntry* ml_t, u32 ml_log, const u8* lit,
                                                          u32 lit_pos, u32 lit_end, u32 lit_wild_end, u8* dst, u32 op,
                                                          u32 limit, u32 dst_cap, u32 window_start, ZdRepeats* reps,
                                                          ZdSeqResult* result) {
  ZdBits b;
  int err = zd_bits_init(&b, src, start, end, ZD_E_SEQ_STREAM_EMPTY, ZD_E_SEQ_STREAM_NO_MARK);
  if (err != 0) return err;
  u32 ll_s = zd_bits_read(&b, ll_log);
  zd_bits_refill(&b, src);
  u32 of_s = zd_bits_read(&b, of_log);
  u32 ml_s = zd_bits_read(&b, ml_log);

  ZdExec x = {reps->rep[0], reps->rep[1], reps->rep[2], lit + lit_pos, dst + op};
  // Sequences ending by these bounds may use wild copies.
  u32 out_wild_end = dst_cap >= ZD_WILD ? dst_cap - ZD_WILD : 0;
  if (limit < out_wild_end) out_wild_end = limit;
  if (lit_end < lit_wild_end) lit_wild_end = lit_end;
  const ZdCopyBounds c = {lit + lit_end, lit + lit_wild_end, dst + limit, dst + out_wild_end, dst + window_start};

  u32 remaining = n_seq;
  // The fast loop: every sequence but the last, while the stream has at least 16 bytes before
  // the reader. Its refills are unconditional and never clamp: each follows at most 39 bits
  // read (offset extra bits <= 30 after at most 7 left over, the two lengths' <= 32, the state
  // updates' <= 26), so it moves the reader back by at most 4 bytes, 12 per sequence.
  while (remaining > 1 && b.p - b.start >= 16) {
#define ZD_REFILL_FAST() \
  do { \
    b.p -= (i32)(b.used >> 3); \
    b.used &= 7; \
    b.bits = zd_load64(src + b.p); \
  } while (0)
    ZD_REFILL_FAST();
    u64 of_e = zd_entry(of_t, of_s);
    u64 ml_e = zd_entry(ml_t, ml_s);
    u64 ll_e = zd_entry(ll_t, ll_s);
    if (ZD_E_EXTRA(of_e) > 30) return ZD_E_OFFSET_CODE;
    u32 of_value = ZD_E_BASE(of_e) + zd_bits_read(&b, ZD_E_EXTRA(of_e));
    ZD_REFILL_FAST();
    u32 ml = ZD_E_BASE(ml_e) + zd_bits_read(&b, ZD_E_EXTRA(ml_e));
    u32 ll = ZD_E_BASE(ll_e) + zd_bits_read(&b, ZD_E_EXTRA(ll_e));
    ZD_REFILL_FAST();
    ll_s = ZD_E_NEXT(ll_e) + zd_bits_read(&b, ZD_E_NB(ll_e));
    ml_s = ZD_E_NEXT(ml_e) + zd_bits_read(&b, ZD_E_NB(ml_e));
    of_s = ZD_E_NEXT(of_e) + zd_bits_read(&b, ZD_E_NB(of_e));
#undef ZD_REFILL_FAST
    err = zd_execute_one(&x, &c, of_value, ll, ml);
    if (err != 0) return err;
    remaining--;
  }

  // The rest, with refills that stop at the stream's start.
  for (; remaining != 0; remaining--) {
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

    // State updates for the next sequence (none after the last): literal lengths, match
    // lengths, offsets (<= 9 + 9 + 8 bits).
    if (remaining != 1) {
      if (b.used > 64 - 26) zd_bits_refill(&b, src);
      ll_s = ll_e.next + zd_bits_read(&b, ll_e.nb);
      ml_s = ml_e.next + zd_bits_read(&b, ml_e.nb);
      of_s = of_e.next + zd_bits_read(&b, of_e.nb);
    }
    err = zd_execute_one(&x, &c, of_value, ll, ml);
    if (err != 0) return err;
  }
  if (zd_bits_left(&b) != 0) return ZD_E_SEQ_NOT_CONSUMED;
  reps->rep[0] = x.rep1;
  reps->rep[1] = x.rep2;
  reps->rep[2] = x.rep3;
  result->op = (u32)(x.out - dst);
  result->lit_pos = (u32)(x.lit - lit);
  return 0;
}
