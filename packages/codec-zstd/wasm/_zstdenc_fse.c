// Finite State Entropy as zstd uses it (RFC 8878 §4.1): normalising counts, the FSE table
// description, encoding and decoding tables. A port of src/encoder/fse.ts; the float
// arithmetic (rounding and log2 costs) is the TypeScript encoder's, with its Math.log2
// values read from _zstdenc_log2.c.

#include "_zstdenc_log2.c"

static inline double log2_of(i32 n) { return bits_to_double(LOG2_BITS[n]); }
/** log2(n / (n - 1)) for n ≥ 2. */
static inline double log2_ratio(i32 n) { return bits_to_double(LOG2_RATIO_BITS[n]); }

/** Math.round for non-negative values: the nearest integer, halves up. */
static inline double round_half_up(double x) {
  double r = __builtin_floor(x);
  return x - r >= 0.5 ? r + 1 : r;
}

static u32 optimal_table_log(i32 max_log, i32 total, i32 max_symbol) {
  i32 src_bits = high_bit((u32)max_i32(total - 1, 1));
  i32 log = min_i32(max_log, src_bits - 2);
  i32 min_bits = min_i32(src_bits + 1, high_bit((u32)max_i32(max_symbol, 1)) + 2);
  if (min_bits > log) log = min_bits;
  return (u32)max_i32(5, min_i32(max_log, log));
}

/**
 * Scales `counts[0..max_symbol]` (summing to `total`, at least two symbols present) to a
 * distribution summing to 2^table_log, into `norm`. Returns 0, or -1 if it cannot.
 */
static i32 normalize_counts(const u32 *counts, i32 max_symbol, u32 total, u32 table_log, i16 *norm) {
  i32 table_size = 1 << table_log;
  i32 sum = 0;
  for (i32 s = 0; s <= max_symbol; s++) {
    u32 c = counts[s];
    norm[s] = 0;
    if (c == 0) continue;
    double v = round_half_up((double)c * (double)table_size / (double)total);
    i32 n = v < 1 ? 1 : (i32)v;
    norm[s] = (i16)n;
    sum += n;
  }
  while (sum > table_size) {
    // Remove a point where it hurts least: cost count * log2(n / (n - 1)).
    i32 best = -1;
    double best_cost = __builtin_inf();
    for (i32 s = 0; s <= max_symbol; s++) {
      i32 n = norm[s];
      if (n <= 1) continue;
      double cost = (double)counts[s] * log2_ratio(n);
      if (cost < best_cost) {
        best_cost = cost;
        best = s;
      }
    }
    if (best < 0) return -1;
    norm[best]--;
    sum--;
  }
  while (sum < table_size) {
    // Add a point where it helps most: gain count * log2((n + 1) / n).
    i32 best = -1;
    double best_gain = -1;
    for (i32 s = 0; s <= max_symbol; s++) {
      i32 n = norm[s];
      if (n == 0) continue;
      double gain = (double)counts[s] * log2_ratio(n + 1);
      if (gain > best_gain) {
        best_gain = gain;
        best = s;
      }
    }
    if (best < 0) return -1;
    norm[best]++;
    sum++;
  }
  return 0;
}

/** Estimated bits to code `counts` with `norm` (infinity if a present symbol has no state). */
static double estimate_bits(const u32 *counts, i32 max_counted, const i16 *norm, i32 norm_length, u32 table_log) {
  double bits = 0;
  for (i32 s = 0; s <= max_counted; s++) {
    u32 c = counts[s];
    if (c == 0) continue;
    i32 n = s < norm_length ? norm[s] : 0;
    if (n == 0) return __builtin_inf();
    bits += (double)c * ((double)table_log - (n < 0 ? 0 : log2_of(n)));
  }
  return bits;
}

/** Writes a distribution as an FSE table description, byte-aligned at the end. */
static void write_table_description(const i16 *norm, i32 max_symbol, u32 table_log, BitWriter *w) {
  bw_add(w, table_log - 5, 4);
  i32 remaining = 1 << table_log;
  i32 s = 0;
  while (remaining > 0 && s <= max_symbol) {
    i32 n = norm[s];
    i32 value = n + 1;  // -1 ("less than one") is written as 0
    i32 nb = high_bit((u32)remaining + 1);
    i32 max_small = (1 << (nb + 1)) - 2 - remaining;
    if (value < max_small) bw_add(w, (u32)value, (u32)nb);
    else if (value < (1 << nb)) bw_add(w, (u32)value, (u32)nb + 1);
    else bw_add(w, (u32)(value + max_small), (u32)nb + 1);
    remaining -= n < 0 ? 1 : n;
    s++;
    if (n == 0) {
      // A zero is followed by 2-bit repeat flags counting the further zeros (3 = "and more").
      i32 run = 0;
      while (s + run <= max_symbol && norm[s + run] == 0) run++;
      s += run;
      while (run >= 3) {
        bw_add(w, 3, 2);
        run -= 3;
      }
      bw_add(w, (u32)run, 2);
    }
  }
  bw_align(w);
}

/** Spreads symbols over the states exactly as decoders do (RFC 8878 §4.1.1). */
static void spread_symbols(const i16 *norm, i32 max_symbol, u32 table_log, u8 *table) {
  i32 table_size = 1 << table_log;
  i32 high = table_size - 1;
  for (i32 s = 0; s <= max_symbol; s++) {
    if (norm[s] == -1) table[high--] = (u8)s;
  }
  i32 step = (table_size >> 1) + (table_size >> 3) + 3;
  i32 mask = table_size - 1;
  i32 pos = 0;
  for (i32 s = 0; s <= max_symbol; s++) {
    i32 n = norm[s];
    for (i32 i = 0; i < n; i++) {
      table[pos] = (u8)s;
      do pos = (pos + step) & mask;
      while (pos > high);
    }
  }
}

/** An FSE encoding table. */
typedef struct {
  u32 table_log;
  /** Encoder state (table size + decoder state) per (symbol, occurrence) slot. */
  u16 state_table[FSE_MAX_TABLE];
  /** Per symbol: (maxBitsOut << 16) - minStatePlus; the bits to emit are (state + delta) >> 16. */
  i32 delta_nb_bits[FSE_MAX_SYMBOLS];
  /** Per symbol: offset from (state >> nbBits) to the symbol's slice of state_table. */
  i32 delta_find_state[FSE_MAX_SYMBOLS];
} FseCTable;

static void build_encoding_table(const i16 *norm, i32 max_symbol, u32 table_log, FseCTable *t) {
  i32 table_size = 1 << table_log;
  u8 spread[FSE_MAX_TABLE];
  i32 cumul[FSE_MAX_SYMBOLS + 1];
  i32 next[FSE_MAX_SYMBOLS + 1];
  spread_symbols(norm, max_symbol, table_log, spread);
  cumul[0] = 0;
  for (i32 s = 0; s <= max_symbol; s++) {
    i32 n = norm[s];
    cumul[s + 1] = cumul[s] + (n < 0 ? 1 : n);
  }
  for (i32 s = 0; s <= max_symbol + 1; s++) next[s] = cumul[s];
  t->table_log = table_log;
  for (i32 u = 0; u < table_size; u++) t->state_table[next[spread[u]]++] = (u16)(table_size + u);
  for (i32 s = 0; s <= max_symbol; s++) {
    i32 n = norm[s];
    if (n == 0) {
      t->delta_nb_bits[s] = (i32)((table_log + 1) << 16) - table_size;
      t->delta_find_state[s] = 0;
    } else if (n == 1 || n == -1) {
      t->delta_nb_bits[s] = (i32)(table_log << 16) - table_size;
      t->delta_find_state[s] = cumul[s] - 1;
    } else {
      i32 max_bits_out = (i32)table_log - high_bit((u32)n - 1);
      t->delta_nb_bits[s] = (max_bits_out << 16) - (n << max_bits_out);
      t->delta_find_state[s] = cumul[s] - n;
    }
  }
}

/** The first encoder state for `symbol` (the cheapest one). */
static inline i32 fse_initial_state(const FseCTable *t, u32 symbol) {
  i32 delta = t->delta_nb_bits[symbol];
  i32 nb_bits = (delta + (1 << 15)) >> 16;
  i32 value = (nb_bits << 16) - delta;
  return t->state_table[(value >> nb_bits) + t->delta_find_state[symbol]];
}

/** Emits the bits that move `*state` to encode `symbol`. */
static inline void fse_encode(BitWriter *w, const FseCTable *t, i32 *state, u32 symbol) {
  i32 st = *state;
  i32 nb_out = (st + t->delta_nb_bits[symbol]) >> 16;
  bw_add(w, (u32)st, (u32)nb_out);
  *state = t->state_table[(st >> nb_out) + t->delta_find_state[symbol]];
}

/** An FSE decoding table (to replay how decoders read the Huffman weights): per state its symbol, bits and baseline. */
typedef struct { u8 symbol[FSE_MAX_TABLE], nb_bits[FSE_MAX_TABLE]; u16 baseline[FSE_MAX_TABLE]; } FseDTable;

static void build_decoding_table(const i16 *norm, i32 max_symbol, u32 table_log, FseDTable *t) {
  spread_symbols(norm, max_symbol, table_log, t->symbol);
  u32 table_size = 1u << table_log;
  u16 next_state[FSE_MAX_SYMBOLS];
  for (i32 s = 0; s <= max_symbol; s++) next_state[s] = (u16)(norm[s] < 0 ? 1 : norm[s]);
  // Kept scalar: each state bumps its symbol's counter, which clang 14's loop vectorizer
  // (-O3 -msimd128) gets wrong once this is inlined: the weights then fail to decode back.
#pragma clang loop vectorize(disable)
  for (u32 u = 0; u < table_size; u++) {
    u32 s = t->symbol[u];
    u32 ns = next_state[s]++;
    u32 nb = table_log - (u32)high_bit(ns);
    t->nb_bits[u] = (u8)nb;
    t->baseline[u] = (u16)((ns << nb) - table_size);
  }
}
