// Huffman-coded literals (RFC 8878 §4.2): the tree description (direct 4-bit weights or
// FSE-compressed weights) turned into a single-lookup table, and the decoding of 1 or 4
// backward bitstreams with it. The structure of src/decoder/huffman.ts.
//
// The table always has 2^11 entries, indexed by the next 11 bits of the stream (a constant
// shift; a tree of max_bits < 11 repeats each entry 2^(11 - max_bits) times); each holds
// symbol << 8 | Number_of_Bits. Trees with short codes (text, digits) also get a pairs table,
// built on first use: for the same 11-bit index, the two symbols that start there when both
// codes fit in the 11 bits, else the one, so one lookup decodes two symbols most of the time.
#pragma once
#include "_zstd_dec_common.c"
#include "_zstd_dec_fse.c"

#define ZD_HUF_MAX_BITS 11

// Pairs are worth their table when the tree's codes average at most this many bits (in
// 1/2 bits; weighing each code by the probability its length implies, 2^-length): two
// average codes then fit the 11-bit window.
#define ZD_HUF_PAIRS_MAX_MEAN2 11u

enum { ZD_PAIRS_UNDECIDED = 0, ZD_PAIRS_BUILT, ZD_PAIRS_UNUSED };

typedef struct {
  u16 entries[1 << ZD_HUF_MAX_BITS];
  // Per 11-bit index: first symbol (bits 0..7), second symbol (8..15), bits taken (16..23),
  // symbols decoded, 1 or 2 (24..31).
  u32 pairs[1 << ZD_HUF_MAX_BITS];
  u32 max_bits;  // 0 while no table has been read in the current frame
  u32 pairs_state;  // ZD_PAIRS_*: reset for every new tree
  u32 weighted_bits;  // sum over symbols of Number_of_Bits << (Weight - 1)
} ZdHuffman;

// Bits left in the weight stream being read (negative once it is over-read).
typedef struct {
  const u8* src;
  i32 start;
  i32 end;
  i32 left;
} ZdWeightBits;

// The next n (<= 6) bits of the weight stream; bits before its start read as 0.
static u32 zd_weight_bits(ZdWeightBits* w, u32 n) {
  w->left -= (i32)n;
  if (n == 0) return 0;
  i64 at = (i64)w->start * 8 + w->left;
  i64 i = at >> 3;
  u32 b0 = i >= w->start && i < w->end ? w->src[i] : 0;
  u32 b1 = i + 1 >= w->start && i + 1 < w->end ? w->src[i + 1] : 0;
  return ((b0 | (b1 << 8)) >> (at & 7)) & ((1u << n) - 1);
}

// Decodes FSE-compressed weights from src[start..end) into `weights`: a distribution
// (accuracy log <= 6), then one backward bitstream read by two interleaved states. The stream
// ends when a state update needs bits that are not there; the other state's symbol is the last
// weight. Returns the number of weights or a negated error code.
static i32 zd_read_fse_weights(const u8* src, i32 start, i32 end, u8* weights) {
  ZdDistribution dist;
  ZdFseEntry table[64];
  i32 stream = zd_read_distribution(src, start, end, 6, 12, &dist);
  if (stream < 0) return stream;
  if (stream >= end) return -ZD_E_HUF_WEIGHTS_EMPTY;
  int err = zd_build_fse_table(&dist, 0, 0, table);
  if (err != 0) return -err;
  u32 last = src[end - 1];
  if (last == 0) return -ZD_E_HUF_WEIGHTS_NO_MARK;
  ZdWeightBits w = {src, stream, end, (end - stream) * 8 - ((i32)__builtin_clz(last) - 23)};
  u32 state[2];
  state[0] = zd_weight_bits(&w, dist.log);
  state[1] = zd_weight_bits(&w, dist.log);
  i32 n = 0;
  for (u32 k = 0;; k ^= 1) {
    if (n > 253) return -ZD_E_HUF_WEIGHTS_TOO_MANY;
    weights[n++] = (u8)table[state[k]].base;
    state[k] = table[state[k]].next + zd_weight_bits(&w, table[state[k]].nb);
    if (w.left < 0) {
      weights[n++] = (u8)table[state[k ^ 1]].base;
      break;
    }
  }
  return n;
}

// Completes the `count` weights with the implied last one and fills `table`.
static int zd_build_huffman(u8* weights, u32 count, ZdHuffman* table) {
  u32 rank_count[ZD_HUF_MAX_BITS + 2] = {0};
  u32 rank_start[ZD_HUF_MAX_BITS + 2];
  u32 total = 0;
  for (u32 s = 0; s < count; s++) {
    u32 w = weights[s];
    if (w > ZD_HUF_MAX_BITS) return ZD_E_HUF_WEIGHT_TOO_LARGE;
    rank_count[w]++;
    if (w > 0) total += 1u << (w - 1);
  }
  if (total == 0) return ZD_E_HUF_NO_SYMBOLS;
  u32 max_bits = 32 - (u32)__builtin_clz(total);  // highest bit + 1
  if (max_bits > ZD_HUF_MAX_BITS) return ZD_E_HUF_TOO_DEEP;
  u32 rest = (1u << max_bits) - total;
  u32 last_weight = 32 - (u32)__builtin_clz(rest);
  if ((1u << (last_weight - 1)) != rest) return ZD_E_HUF_INCOMPLETE;
  weights[count++] = (u8)last_weight;
  rank_count[last_weight]++;
  // A complete prefix code has an even number (>= 2) of longest codes.
  if (rank_count[1] < 2 || (rank_count[1] & 1) != 0) return ZD_E_HUF_INVALID_TREE;
  // Codes are handed out from the lowest weight (longest code) up, symbols in order.
  u32 next = 0;
  for (u32 w = 1; w <= max_bits; w++) {
    rank_start[w] = next;
    next += rank_count[w] << (w - 1);
  }
  // The table always has 2^11 entries (indexed by the next 11 bits, a constant shift): a
  // shallower tree's entries are repeated 2^(11 - max_bits) times.
  u32 scale = ZD_HUF_MAX_BITS - max_bits;
  u32 weighted = 0;
  for (u32 s = 0; s < count; s++) {
    u32 w = weights[s];
    if (w == 0) continue;
    u32 length = 1u << (w - 1 + scale);
    u32 at = rank_start[w] << scale;
    u16 entry = (u16)((s << 8) | (max_bits + 1 - w));
    for (u32 k = 0; k < length; k++) table->entries[at + k] = entry;
    rank_start[w] += 1u << (w - 1);
    weighted += (max_bits + 1 - w) << (w - 1);
  }
  table->max_bits = max_bits;
  table->weighted_bits = weighted;
  table->pairs_state = ZD_PAIRS_UNDECIDED;
  return 0;
}

// Reads a Huffman tree description at src[pos..end) and builds `table` from it. Returns the
// offset just past the description, or a negated error code.
static i32 zd_read_huffman(const u8* src, i32 pos, i32 end, ZdHuffman* table) {
  u8 weights[256];
  if (pos >= end) return -ZD_E_HUF_DESCRIPTION_TRUNCATED;
  u32 header = src[pos++];
  i32 count;
  if (header >= 128) {
    // Direct representation: 4 bits per weight, first weight in the high nibble.
    count = (i32)header - 127;
    i32 bytes = (count + 1) >> 1;
    if (pos + bytes > end) return -ZD_E_HUF_DESCRIPTION_TRUNCATED;
    for (i32 i = 0; i < count; i += 2) {
      u32 b = src[pos + (i >> 1)];
      weights[i] = (u8)(b >> 4);
      weights[i + 1] = (u8)(b & 15);
    }
    pos += bytes;
  } else {
    if (header == 0 || pos + (i32)header > end) return -ZD_E_HUF_DESCRIPTION_TRUNCATED;
    count = zd_read_fse_weights(src, pos, pos + (i32)header, weights);
    if (count < 0) return count;
    pos += (i32)header;
  }
  int err = zd_build_huffman(weights, (u32)count, table);
  return err != 0 ? -err : pos;
}

// One symbol from reader b (its window holding at least max_bits unread bits).
#define ZD_HUF_STEP(b, dst) \
  do { \
    u32 e_ = entries[((b).bits << ((b).used & 63)) >> shift]; \
    (b).used += e_ & 0xff; \
    (dst) = (u8)(e_ >> 8); \
  } while (0)

// Decodes dst[o..o_end) from reader b to the end of its stream. Returns the bits left, 0 for
// a valid stream.
static i64 zd_huf_tail(ZdBits* b, const u8* src, const ZdHuffman* t, u8* dst, u32 o, u32 o_end) {
  const u16* entries = t->entries;
  const u32 shift = 64 - ZD_HUF_MAX_BITS;
  while (o < o_end) {
    zd_bits_refill(b, src);
    ZD_HUF_STEP(*b, dst[o]);
    o++;
  }
  return zd_bits_left(b);
}

// `size` literals from one Huffman stream src[start..end) into dst.
static int zd_huf_decode1(const u8* src, i32 start, i32 end, const ZdHuffman* t, u8* dst, u32 size) {
  ZdBits b;
  int err = zd_bits_init(&b, src, start, end, ZD_E_HUF_STREAM_EMPTY, ZD_E_HUF_STREAM_NO_MARK);
  if (err != 0) return err;
  return zd_huf_tail(&b, src, t, dst, 0, size) == 0 ? 0 : ZD_E_HUF_NOT_CONSUMED;
}

// A reader again from the fast loop's form of it (window w at p, bits taken = trailing zeros).
static inline void zd_huf_unpack(ZdBits* b, const u8* src, i32 p, u64 w) {
  b->p = p;
  b->used = (u32)__builtin_ctzll(w);
  b->bits = zd_load64(src + p);
}

// Whether 4-stream literals with this tree use the pairs table (built here on first use).
// The mean code length, each length weighted by the probability it implies, is
// weighted_bits / 2^max_bits.
static int zd_huf_use_pairs(ZdHuffman* t) {
  if (t->pairs_state == ZD_PAIRS_UNDECIDED) {
    if (2 * t->weighted_bits > (ZD_HUF_PAIRS_MAX_MEAN2 << t->max_bits)) {
      t->pairs_state = ZD_PAIRS_UNUSED;
    } else {
      const u32 mask = (1u << ZD_HUF_MAX_BITS) - 1;
      for (u32 i = 0; i <= mask; i++) {
        u32 e1 = t->entries[i];
        u32 n1 = e1 & 0xff;
        // The second code starts after the first; its entry depends only on its own bits,
        // all inside the window when n1 + n2 <= 11 (the low n1 bits of the index are zeros).
        u32 e2 = t->entries[(i << n1) & mask];
        u32 n2 = e2 & 0xff;
        t->pairs[i] = n1 + n2 <= ZD_HUF_MAX_BITS ? (e1 >> 8) | (e2 & 0xff00) | ((n1 + n2) << 16) | (2u << 24)
                                                 : (e1 >> 8) | (n1 << 16) | (1u << 24);
      }
      t->pairs_state = ZD_PAIRS_BUILT;
    }
  }
  return t->pairs_state == ZD_PAIRS_BUILT;
}

// Iterations of a fast loop that are safe for one stream: its reader at p, `start` its
// stream's start, `room` bytes of output left, `per` bytes written per iteration at most.
// Each iteration takes at most 55 bits (5 codes of <= 11 bits) on top of the <= 7 left over,
// so its reload moves back at most 7 bytes: p - start >= 7 before each keeps it in the stream.
static inline u32 zd_huf_safe(i32 p, i32 start, u32 room, u32 per) {
  i32 in = p - start;
  if (in < 7) return 0;
  u32 by_input = (u32)in / 7;
  u32 by_output = room / per;
  return by_input < by_output ? by_input : by_output;
}

// `size` literals from 4 Huffman streams (a 6-byte jump table at `start`, then the streams up
// to `end`) into dst. The four streams are decoded in one loop, 5 lookups per stream between
// refills (5 x 11 bits fit the 57 bits a refill leaves), for as many iterations as every
// stream has input and output for (computed up front, so the loop itself checks nothing); the
// ends are finished one stream at a time.
static int zd_huf_decode4(const u8* src, i32 start, i32 end, ZdHuffman* t, u8* dst, u32 size) {
  if (size < 6) return ZD_E_HUF4_TOO_SHORT;
  if (end - start < 10) return ZD_E_HUF_JUMP_TABLE_TRUNCATED;
  i32 s1 = start + 6;
  i32 s2 = s1 + zd_load16(src + start);
  i32 s3 = s2 + zd_load16(src + start + 2);
  i32 s4 = s3 + zd_load16(src + start + 4);
  if (s4 >= end) return ZD_E_HUF_JUMP_TABLE_PAST;
  u32 segment = (size + 3) >> 2;
  ZdBits b1, b2, b3, b4;
  int err = zd_bits_init(&b1, src, s1, s2, ZD_E_HUF_STREAM_EMPTY, ZD_E_HUF_STREAM_NO_MARK);
  if (err == 0) err = zd_bits_init(&b2, src, s2, s3, ZD_E_HUF_STREAM_EMPTY, ZD_E_HUF_STREAM_NO_MARK);
  if (err == 0) err = zd_bits_init(&b3, src, s3, s4, ZD_E_HUF_STREAM_EMPTY, ZD_E_HUF_STREAM_NO_MARK);
  if (err == 0) err = zd_bits_init(&b4, src, s4, end, ZD_E_HUF_STREAM_EMPTY, ZD_E_HUF_STREAM_NO_MARK);
  if (err != 0) return err;
  u8* d1 = dst;
  u8* d2 = dst + segment;
  u8* d3 = dst + 2 * segment;
  u8* d4 = dst + 3 * segment;
  // Stream 4 has the shortest output: size - 3 * segment.
  u32 last = size - 3 * segment;
  // Where each stream's output stands.
  u32 o1 = 0, o2 = 0, o3 = 0, o4 = 0;
  // The fast loops keep each stream in one register: the window shifted left by the bits
  // taken, with a 1 below them (the window's lowest bit, never reached before a reload:
  // 5 x 11 + 7 < 63), so the count taken is the window's trailing zeros.
  u64 w1 = (b1.bits | 1) << b1.used, w2 = (b2.bits | 1) << b2.used;
  u64 w3 = (b3.bits | 1) << b3.used, w4 = (b4.bits | 1) << b4.used;
  i32 p1 = b1.p, p2 = b2.p, p3 = b3.p, p4 = b4.p;
  // Whether a fast loop ran (else the readers are left as they are: a stream shorter than 8
  // bytes has a window no reload may make).
  int ran = 0;
#define ZD_HUF_RELOAD(w, p) \
  do { \
    u32 z_ = (u32)__builtin_ctzll(w); \
    (p) -= (i32)(z_ >> 3); \
    (w) = (zd_load64(src + (p)) | 1) << (z_ & 7); \
  } while (0)
  if (zd_huf_use_pairs(t)) {
    // One lookup, one or two symbols: both are stored (2 bytes), the position advances by the
    // count. 5 lookups write at most 10 bytes, all inside the stream's own segment.
    const u32* pairs = t->pairs;
#define ZD_HUF_PAIR(w, d, o) \
  do { \
    u32 e_ = pairs[(w) >> 53]; \
    zd_store16((d) + (o), (u16)e_); \
    (w) <<= (e_ >> 16) & 63; \
    (o) += e_ >> 24; \
  } while (0)
    for (;;) {
      u32 n = zd_huf_safe(p1, s1, segment - o1, 10);
      u32 n2 = zd_huf_safe(p2, s2, segment - o2, 10);
      u32 n3 = zd_huf_safe(p3, s3, segment - o3, 10);
      u32 n4 = zd_huf_safe(p4, s4, last - o4, 10);
      n = n2 < n ? n2 : n;
      n = n3 < n ? n3 : n;
      n = n4 < n ? n4 : n;
      if (n == 0) break;
      ran = 1;
      do {
        ZD_HUF_PAIR(w1, d1, o1);
        ZD_HUF_PAIR(w2, d2, o2);
        ZD_HUF_PAIR(w3, d3, o3);
        ZD_HUF_PAIR(w4, d4, o4);
        ZD_HUF_PAIR(w1, d1, o1);
        ZD_HUF_PAIR(w2, d2, o2);
        ZD_HUF_PAIR(w3, d3, o3);
        ZD_HUF_PAIR(w4, d4, o4);
        ZD_HUF_PAIR(w1, d1, o1);
        ZD_HUF_PAIR(w2, d2, o2);
        ZD_HUF_PAIR(w3, d3, o3);
        ZD_HUF_PAIR(w4, d4, o4);
        ZD_HUF_PAIR(w1, d1, o1);
        ZD_HUF_PAIR(w2, d2, o2);
        ZD_HUF_PAIR(w3, d3, o3);
        ZD_HUF_PAIR(w4, d4, o4);
        ZD_HUF_PAIR(w1, d1, o1);
        ZD_HUF_PAIR(w2, d2, o2);
        ZD_HUF_PAIR(w3, d3, o3);
        ZD_HUF_PAIR(w4, d4, o4);
        ZD_HUF_RELOAD(w1, p1);
        ZD_HUF_RELOAD(w2, p2);
        ZD_HUF_RELOAD(w3, p3);
        ZD_HUF_RELOAD(w4, p4);
      } while (--n != 0);
    }
#undef ZD_HUF_PAIR
  } else {
    const u16* entries = t->entries;
    // One symbol per lookup: the four streams advance together.
#define ZD_HUF_FAST(w, d) \
  do { \
    u32 e_ = entries[(w) >> 53]; \
    (w) <<= e_ & 63; \
    (d) = (u8)(e_ >> 8); \
  } while (0)
    u32 o = 0;
    for (;;) {
      u32 n = zd_huf_safe(p1, s1, last - o, 5);
      u32 n2 = zd_huf_safe(p2, s2, last - o, 5);
      u32 n3 = zd_huf_safe(p3, s3, last - o, 5);
      u32 n4 = zd_huf_safe(p4, s4, last - o, 5);
      n = n2 < n ? n2 : n;
      n = n3 < n ? n3 : n;
      n = n4 < n ? n4 : n;
      if (n == 0) break;
      ran = 1;
      do {
        ZD_HUF_FAST(w1, d1[o]);
        ZD_HUF_FAST(w2, d2[o]);
        ZD_HUF_FAST(w3, d3[o]);
        ZD_HUF_FAST(w4, d4[o]);
        ZD_HUF_FAST(w1, d1[o + 1]);
        ZD_HUF_FAST(w2, d2[o + 1]);
        ZD_HUF_FAST(w3, d3[o + 1]);
        ZD_HUF_FAST(w4, d4[o + 1]);
        ZD_HUF_FAST(w1, d1[o + 2]);
        ZD_HUF_FAST(w2, d2[o + 2]);
        ZD_HUF_FAST(w3, d3[o + 2]);
        ZD_HUF_FAST(w4, d4[o + 2]);
        ZD_HUF_FAST(w1, d1[o + 3]);
        ZD_HUF_FAST(w2, d2[o + 3]);
        ZD_HUF_FAST(w3, d3[o + 3]);
        ZD_HUF_FAST(w4, d4[o + 3]);
        ZD_HUF_FAST(w1, d1[o + 4]);
        ZD_HUF_FAST(w2, d2[o + 4]);
        ZD_HUF_FAST(w3, d3[o + 4]);
        ZD_HUF_FAST(w4, d4[o + 4]);
        o += 5;
        ZD_HUF_RELOAD(w1, p1);
        ZD_HUF_RELOAD(w2, p2);
        ZD_HUF_RELOAD(w3, p3);
        ZD_HUF_RELOAD(w4, p4);
      } while (--n != 0);
    }
#undef ZD_HUF_FAST
    o1 = o2 = o3 = o4 = o;
  }
#undef ZD_HUF_RELOAD
  // Back to the readers' form for the ends of the streams.
  if (ran) {
    zd_huf_unpack(&b1, src, p1, w1);
    zd_huf_unpack(&b2, src, p2, w2);
    zd_huf_unpack(&b3, src, p3, w3);
    zd_huf_unpack(&b4, src, p4, w4);
  }
  i64 left = zd_huf_tail(&b1, src, t, d1, o1, segment) | zd_huf_tail(&b2, src, t, d2, o2, segment) |
             zd_huf_tail(&b3, src, t, d3, o3, segment) | zd_huf_tail(&b4, src, t, d4, o4, last);
  return left == 0 ? 0 : ZD_E_HUF_NOT_CONSUMED;
}
