// LZ77 match finding (a port of src/encoder/match-finder.ts, same choices):
// - fast: one hash-table candidate per position plus the most recent repeat offset, skipping
//   ahead faster the longer no match is found (levels ≤ 1);
// - chain: hash chains searched `search_depth` deep, repeat offsets first, greedy or lazy
//   (one or two positions ahead) selection (levels ≥ 2).
// Matches score 4 per byte minus the bits the offset costs. The finder spans the whole
// input and keeps the repeat-offset history the decoder will have.

#define HASH_MULTIPLIER 0x9e3779b1u

/** Match-finder and entropy settings of one level (levels.ts). */
typedef struct {
  u32 window_log;
  u32 hash_log;
  u32 chain_log;
  i32 search_depth;
  i32 lazy_depth;
  i32 target_length;
  i32 step;
  i32 huffman_literals;
} LevelParams;

#define MIN_LEVEL (-131072)
#define MAX_LEVEL 22
#define DEFAULT_LEVEL 3

static const u16 LEVEL_TABLE[22][6] = {
    {19, 16, 0, 1, 0, 0},        {20, 17, 15, 2, 0, 16},      {21, 17, 16, 4, 0, 24},      {21, 17, 17, 6, 0, 32},
    {21, 18, 17, 8, 1, 32},      {21, 18, 18, 10, 1, 48},     {22, 18, 18, 12, 1, 64},     {22, 18, 19, 16, 2, 64},
    {22, 19, 19, 24, 2, 96},     {22, 19, 20, 32, 2, 128},    {22, 19, 20, 40, 2, 128},    {23, 20, 20, 48, 2, 192},
    {23, 20, 21, 64, 2, 256},    {23, 20, 21, 80, 2, 256},    {23, 20, 22, 96, 2, 384},    {23, 21, 22, 112, 2, 512},
    {23, 21, 22, 128, 2, 768},   {23, 21, 22, 160, 2, 1024},  {23, 21, 22, 192, 2, 1024},  {25, 22, 23, 224, 2, 2048},
    {26, 22, 23, 256, 2, 4096},  {27, 22, 24, 320, 2, 8192},
};

// Negative levels: the fast strategy (its step grows with -level).
static const u16 NEGATIVE_LEVELS[6] = {19, 15, 0, 1, 0, 0};

/** Parameters of `level` (already in MIN_LEVEL..MAX_LEVEL). */
static LevelParams level_params(i32 level) {
  LevelParams p;
  if (level == 0) level = DEFAULT_LEVEL;
  const u16 *row = level < 0 ? NEGATIVE_LEVELS : LEVEL_TABLE[level - 1];
  p.window_log = row[0];
  p.hash_log = row[1];
  p.chain_log = row[2];
  p.search_depth = row[3];
  p.lazy_depth = row[4];
  p.target_length = row[5];
  p.step = level < 0 ? min_i32(-level, 64) + 1 : 1;
  // The fastest levels store literals raw.
  p.huffman_literals = level > -8;
  return p;
}

/** log2 of the hash and chain tables for an input of `n` bytes: no larger than it needs. */
static void table_logs(const LevelParams *p, u32 n, u32 *hash_log, u32 *chain_log) {
  u32 input_log = 8;
  while (input_log < 32 && ((u64)1 << input_log) < n) input_log++;
  *hash_log = p->hash_log < input_log + 1 ? p->hash_log : input_log + 1;
  *chain_log = p->chain_log == 0 ? 0 : (p->chain_log < input_log ? p->chain_log : input_log);
}

typedef struct {
  const u8 *src;
  i32 n;
  LevelParams params;
  /** Most recent position + 1 per hash (0 = empty). */
  i32 *head;
  /** Previous position + 1 with the same hash, at position & chain_mask. */
  i32 *chain;
  u32 hash_shift;
  i32 chain_mask;
  i32 chain_size;
  /** Largest offset allowed (window size - 1). */
  i32 max_distance;
  /** Positions below this are in the hash chains. */
  i32 next_to_update;
  i32 found_length;
  i32 found_offset;
  i32 found_gain;
  /** The repeat-offset history as the decoder will see it. */
  u32 rep0;
  u32 rep1;
  u32 rep2;
} MatchFinder;

static inline u32 mf_hash(const MatchFinder *m, i32 i) { return (zd_load32(m->src + i) * HASH_MULTIPLIER) >> m->hash_shift; }

static inline i32 equal4(const u8 *s, i32 a, i32 b) { return zd_load32(s + a) == zd_load32(s + b); }

/** Length of the common run of src[a..] and src[b..] (a < b), at most `max`. */
static inline i32 mf_count(const u8 *s, i32 a, i32 b, i32 max) {
  i32 k = 0;
  while (k + 8 <= max) {
    u64 x = zd_load64(s + a + k) ^ zd_load64(s + b + k);
    if (x != 0) return k + (__builtin_ctzll(x) >> 3);
    k += 8;
  }
  while (k < max && s[a + k] == s[b + k]) k++;
  return k;
}

static inline void copy_literals(SequenceStore *store, const u8 *src, i32 from, i32 to) {
  if (to <= from) return;
  __builtin_memcpy(store->literals + store->nb_literals, src + from, (u32)(to - from));
  store->nb_literals += (u32)(to - from);
}

/** Records one sequence and updates the repeat-offset history exactly as decoders do. */
static void mf_emit(MatchFinder *m, SequenceStore *store, i32 anchor, i32 ip, i32 length, u32 offset) {
  i32 ll = ip - anchor;
  copy_literals(store, m->src, anchor, ip);
  u32 off_base;
  if (ll > 0) {
    if (offset == m->rep0) {
      off_base = 1;
    } else if (offset == m->rep1) {
      off_base = 2;
      m->rep1 = m->rep0;
      m->rep0 = offset;
    } else if (offset == m->rep2) {
      off_base = 3;
      m->rep2 = m->rep1;
      m->rep1 = m->rep0;
      m->rep0 = offset;
    } else {
      off_base = offset + 3;
      m->rep2 = m->rep1;
      m->rep1 = m->rep0;
      m->rep0 = offset;
    }
  } else if (offset == m->rep1) {
    off_base = 1;
    m->rep1 = m->rep0;
    m->rep0 = offset;
  } else {
    off_base = offset == m->rep2 ? 2 : offset == m->rep0 - 1 ? 3 : offset + 3;
    m->rep2 = m->rep1;
    m->rep1 = m->rep0;
    m->rep0 = offset;
  }
  u32 i = store->nb_seq++;
  store->lit_length[i] = (u32)ll;
  store->match_length[i] = (u32)length;
  store->off_base[i] = off_base;
}

/** The fast strategy over [start, end); returns the anchor (start of the pending literals). */
STAGE i32 mf_fast(MatchFinder *m, i32 start, i32 end, SequenceStore *store) {
  const u8 *src = m->src;
  i32 *head = m->head;
  i32 max_distance = m->max_distance;
  i32 step = m->params.step;
  i32 ilimit = end - MIN_MATCH;
  i32 hash_limit = m->n - 4;
  i32 ip = start;
  i32 anchor = start;
  while (ip <= ilimit) {
    i32 rep_offset = (i32)(ip > anchor ? m->rep0 : m->rep1);
    u32 h = mf_hash(m, ip);
    i32 candidate = head[h] - 1;
    head[h] = ip + 1;
    i32 offset;
    if (rep_offset <= ip && rep_offset <= max_distance && equal4(src, ip - rep_offset, ip)) {
      offset = rep_offset;
    } else if (candidate >= 0 && ip - candidate <= max_distance && equal4(src, candidate, ip)) {
      offset = ip - candidate;
    } else {
      ip += step + ((ip - anchor) >> 7);
      continue;
    }
    i32 length = MIN_MATCH + mf_count(src, ip - offset + MIN_MATCH, ip + MIN_MATCH, end - ip - MIN_MATCH);
    // Extend backwards over literals that also match.
    while (ip > anchor && ip - offset > 0 && src[ip - 1] == src[ip - offset - 1]) {
      ip--;
      length++;
    }
    mf_emit(m, store, anchor, ip, length, (u32)offset);
    i32 match_start = ip;
    ip += length;
    anchor = ip;
    // Seed the table inside the match so the next data can refer to it.
    if (match_start + 2 < ip && match_start + 2 <= hash_limit) head[mf_hash(m, match_start + 2)] = match_start + 3;
    if (ip - 2 > match_start && ip - 2 <= hash_limit) head[mf_hash(m, ip - 2)] = ip - 1;
  }
  return anchor;
}

/** Adds positions [next_to_update, target) to the hash chains. */
static inline void mf_insert_up_to(MatchFinder *m, i32 target) {
  i32 *head = m->head;
  i32 *chain = m->chain;
  i32 mask = m->chain_mask;
  i32 last = min_i32(target, m->n - 4 + 1);
  for (i32 i = m->next_to_update; i < last; i++) {
    u32 h = mf_hash(m, i);
    chain[i & mask] = head[h];
    head[h] = i + 1;
  }
  if (target > m->next_to_update) m->next_to_update = target;
}

/**
 * Best match at `ip` (with `ll` pending literals) among the repeat offsets and the hash
 * chain: sets found_length (0 if none), found_offset and found_gain.
 */
STAGE void mf_search(MatchFinder *m, i32 ip, i32 ll, i32 end) {
  const u8 *src = m->src;
  i32 max_length = end - ip;
  i32 max_distance = m->max_distance;
  i32 best_length = 0;
  i32 best_offset = 0;
  i32 best_gain = -0x7fffffff - 1;

  // Repeat offsets: with pending literals codes 1..3 mean rep0..rep2; right after a match
  // they mean rep1, rep2 and rep0 - 1.
  for (i32 code = 1; code <= 3; code++) {
    i64 offset;
    if (ll > 0) offset = code == 1 ? m->rep0 : code == 2 ? m->rep1 : m->rep2;
    else offset = code == 1 ? m->rep1 : code == 2 ? m->rep2 : (i64)m->rep0 - 1;
    if (offset < 1 || offset > ip || offset > max_distance || !equal4(src, ip - (i32)offset, ip)) continue;
    i32 o = (i32)offset;
    i32 length = MIN_MATCH + mf_count(src, ip - o + MIN_MATCH, ip + MIN_MATCH, max_length - MIN_MATCH);
    i32 gain = length * 4 - (code == 1 ? 0 : 1);
    if (gain > best_gain) {
      best_gain = gain;
      best_length = length;
      best_offset = o;
    }
  }

  // Hash chain.
  mf_insert_up_to(m, ip);
  u32 h = mf_hash(m, ip);
  i32 candidate = m->head[h] - 1;
  if (m->next_to_update == ip) {
    m->chain[ip & m->chain_mask] = m->head[h];
    m->head[h] = ip + 1;
    m->next_to_update = ip + 1;
  }
  if (best_length < max_length) {
    i32 low = max_i32(0, ip - max_distance);
    // Chain slots of positions older than this may have been reused.
    i32 chain_low = ip - m->chain_size + 1;
    i32 target = m->params.target_length;
    i32 attempts = m->params.search_depth;
    i32 chain_best = MIN_MATCH - 1;
    const i32 *chain = m->chain;
    i32 mask = m->chain_mask;
    while (candidate >= low && candidate < ip && attempts-- > 0) {
      if (src[candidate + chain_best] == src[ip + chain_best] && equal4(src, candidate, ip)) {
        i32 length = MIN_MATCH + mf_count(src, candidate + MIN_MATCH, ip + MIN_MATCH, max_length - MIN_MATCH);
        if (length > chain_best) {
          chain_best = length;
          i32 gain = length * 4 - high_bit((u32)(ip - candidate + 3));
          if (gain > best_gain) {
            best_gain = gain;
            best_length = length;
            best_offset = ip - candidate;
          }
          if (length >= target || length == max_length) break;
        }
      }
      if (candidate < chain_low) break;
      i32 next = chain[candidate & mask] - 1;
      if (next >= candidate) break;
      candidate = next;
    }
  }
  m->found_length = best_length;
  m->found_offset = best_offset;
  m->found_gain = best_gain;
}

/** Greedy or lazy matching over hash chains; returns the anchor. */
STAGE i32 mf_lazy(MatchFinder *m, i32 start, i32 end, SequenceStore *store) {
  const u8 *src = m->src;
  i32 depth = m->params.lazy_depth;
  i32 ilimit = end - MIN_MATCH;
  i32 ip = start;
  i32 anchor = start;
  while (ip <= ilimit) {
    mf_search(m, ip, ip - anchor, end);
    if (m->found_length < MIN_MATCH) {
      ip += 1 + ((ip - anchor) >> 8);
      continue;
    }
    i32 length = m->found_length;
    i32 offset = m->found_offset;
    i32 gain = m->found_gain;
    // Lazy evaluation: a better match one (then two) bytes later wins over this one, by more
    // than LAZY_MARGIN[k] points.
    static const i32 LAZY_MARGIN[3] = {0, 4, 7};
    for (;;) {
      i32 ahead = 0;
      for (i32 k = 1; k <= depth && ip + k <= ilimit; k++) {
        mf_search(m, ip + k, ip + k - anchor, end);
        if (m->found_length >= MIN_MATCH && m->found_gain > gain + LAZY_MARGIN[k]) {
          ahead = k;
          break;
        }
      }
      if (ahead == 0) break;
      ip += ahead;
      length = m->found_length;
      offset = m->found_offset;
      gain = m->found_gain;
    }
    while (ip > anchor && ip - offset > 0 && src[ip - 1] == src[ip - offset - 1]) {
      ip--;
      length++;
    }
    mf_emit(m, store, anchor, ip, length, (u32)offset);
    ip += length;
    anchor = ip;
  }
  return anchor;
}

/** A finder over src[0..n) with its tables in `head` and `chain` (zeroed here). */
static void mf_init(MatchFinder *m, const u8 *src, u32 n, const LevelParams *params, u32 window_size, i32 *head, i32 *chain) {
  u32 hash_log;
  u32 chain_log;
  table_logs(params, n, &hash_log, &chain_log);
  __builtin_memset(m, 0, sizeof *m);
  m->src = src;
  m->n = (i32)n;
  m->params = *params;
  m->head = head;
  m->chain = chain;
  m->hash_shift = 32 - hash_log;
  m->chain_size = chain_log == 0 ? 0 : 1 << chain_log;
  m->chain_mask = m->chain_size - 1;
  m->max_distance = (i32)window_size - 1;
  // The decoder's initial repeat offsets (RFC 8878 §3.1.2.5).
  m->rep0 = 1, m->rep1 = 4, m->rep2 = 8;
  __builtin_memset(head, 0, 4u << hash_log);
  if (chain_log != 0) __builtin_memset(chain, 0, 4u << chain_log);
}

/** Appends the sequences and literals of src[start..end) to `store`. */
static void mf_find_sequences(MatchFinder *m, i32 start, i32 end, SequenceStore *store) {
  i32 anchor = m->chain_size == 0 ? mf_fast(m, start, end, store) : mf_lazy(m, start, end, store);
  // Trailing literals close the block.
  copy_literals(store, m->src, anchor, end);
}
