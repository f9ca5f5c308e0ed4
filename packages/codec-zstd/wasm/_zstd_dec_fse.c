// FSE (tANS) decoding tables (RFC 8878 §4.1): reading a table description (normalized
// distribution) and building decoding tables from it, as src/decoder/fse.ts does.
//
// Sequence tables (literal lengths, match lengths, offsets) carry per state what the
// sequence loop needs: the code's baseline value and extra bits, and the state transition.
// Plain tables (Huffman weights) carry the symbol instead of a code's value.
#pragma once
#include "_zstd_dec_common.c"

typedef struct {
  u32 base;  // the code's baseline value (sequence tables) or the symbol (plain tables)
  u8 extra;  // extra bits of the code
  u8 nb;     // Number_of_Bits of the state transition
  u16 next;  // baseline of the next state
} ZdFseEntry;

typedef struct {
  short norm[64];  // normalized probabilities, -1 meaning "less than 1"
  u32 count;       // symbols described (the last one + 1)
  u32 log;         // Accuracy_Log
} ZdDistribution;

// Up to 32 bits of src at byte i, little-endian; bytes at or past `end` read as 0.
static inline u32 zd_read_forward(const u8* src, i32 i, i32 end) {
  if (i + 4 <= end) return zd_load32(src + i);
  u32 v = 0;
  for (i32 k = 0; k < 4 && i + k < end; k++) v |= (u32)src[i + k] << (8 * k);
  return v;
}

// Reads a table description (RFC 8878 §4.1.1) at src[pos..end) into `d`. Returns the offset
// just past it (descriptions use whole bytes), or a negated error code.
static i32 zd_read_distribution(const u8* src, i32 pos, i32 end, u32 max_log, u32 max_symbol, ZdDistribution* d) {
  if (pos >= end) return -ZD_E_FSE_TRUNCATED;
  u32 log = (src[pos] & 15) + 5;
  if (log > max_log) return -ZD_E_FSE_LOG;
  i64 bit = (i64)pos * 8 + 4;
  i64 end_bit = (i64)end * 8;
  i32 remaining = (1 << log) + 1;
  i32 threshold = 1 << log;
  u32 nb_bits = log + 1;
  u32 symbol = 0;
  while (remaining > 1 && symbol <= max_symbol) {
    u32 v = zd_read_forward(src, (i32)(bit >> 3), end) >> (bit & 7);
    i32 max = 2 * threshold - 1 - remaining;
    i32 count;
    if ((i32)(v & (u32)(threshold - 1)) < max) {
      count = (i32)(v & (u32)(threshold - 1));
      bit += nb_bits - 1;
    } else {
      count = (i32)(v & (u32)(2 * threshold - 1));
      if (count >= threshold) count -= max;
      bit += nb_bits;
    }
    count--;  // probability: value - 1 (so 0 means "less than 1")
    remaining -= count < 0 ? -count : count;
    d->norm[symbol++] = (short)count;
    if (count == 0) {
      // Zero probabilities are followed by 2-bit repeat flags (3 = "3 more and another flag").
      for (;;) {
        u32 repeat = (zd_read_forward(src, (i32)(bit >> 3), end) >> (bit & 7)) & 3;
        bit += 2;
        if (symbol + repeat > max_symbol + 1) return -ZD_E_FSE_TOO_MANY_SYMBOLS;
        for (u32 k = 0; k < repeat; k++) d->norm[symbol++] = 0;
        if (repeat != 3) break;
        if (bit > end_bit) return -ZD_E_FSE_TRUNCATED;
      }
    }
    if (bit > end_bit) return -ZD_E_FSE_TRUNCATED;
    if (remaining <= 1) break;
    while (remaining < threshold) {
      nb_bits--;
      threshold >>= 1;
    }
  }
  if (remaining != 1) return -ZD_E_FSE_SUM;
  d->count = symbol;
  d->log = log;
  return (i32)((bit + 7) >> 3);
}

// Spreads the symbols of `d` over symbols[0..2^log) (RFC 8878 §4.1.1): "less than 1" symbols at
// the end, the others with the step rule; next[s] becomes each symbol's first state value.
static int zd_spread(const ZdDistribution* d, u8* symbols, u16* next) {
  u32 size = 1u << d->log;
  u32 high = size - 1;
  for (u32 s = 0; s < d->count; s++) {
    if (d->norm[s] == -1) {
      symbols[high--] = (u8)s;
      next[s] = 1;
    } else {
      next[s] = (u16)d->norm[s];
    }
  }
  u32 mask = size - 1;
  u32 step = (size >> 1) + (size >> 3) + 3;
  u32 position = 0;
  for (u32 s = 0; s < d->count; s++) {
    i32 n = d->norm[s];
    for (i32 i = 0; i < n; i++) {
      symbols[position] = (u8)s;
      do position = (position + step) & mask;
      while (position > high);
    }
  }
  // The description summed to the table size, so the walk ends where it started.
  return position == 0 ? 0 : ZD_E_FSE_FILL;
}

// Builds the decoding table of `d` into `out` (2^log entries). With `code_base` and
// `code_bits` it is a sequence table; without, a plain table whose `base` is the symbol.
static int zd_build_fse_table(const ZdDistribution* d, const u32* code_base, const u8* code_bits, ZdFseEntry* out) {
  u8 symbols[512];
  u16 next[64];
  int err = zd_spread(d, symbols, next);
  if (err != 0) return err;
  u32 size = 1u << d->log;
  for (u32 u = 0; u < size; u++) {
    u32 s = symbols[u];
    u32 x = next[s]++;
    u32 nb = d->log - (31 - (u32)__builtin_clz(x));
    out[u].base = code_base != 0 ? code_base[s] : s;
    out[u].extra = code_bits != 0 ? code_bits[s] : 0;
    out[u].nb = (u8)nb;
    out[u].next = (u16)((x << nb) - size);
  }
  return 0;
}

// The one-state table of RLE mode: always `symbol`, no state bits.
static void zd_build_rle_table(u32 symbol, const u32* code_base, const u8* code_bits, ZdFseEntry* out) {
  out[0].base = code_base[symbol];
  out[0].extra = code_bits[symbol];
  out[0].nb = 0;
  out[0].next = 0;
}
