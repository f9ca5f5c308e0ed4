// Shared by the pieces of the zstd encoder kernel: integer types, unaligned loads and
// stores, the format's constant tables (RFC 8878 §3.1.1.3.2.1) and the forward bit writer.
// A port of src/encoder/ (tables.ts, bit-writer.ts): the kernel must write the bytes the
// TypeScript encoder writes.

// Integer types and little-endian loads are the decoder's (shared with it).
#include "_zstd_dec_common.c"
typedef short i16;

// The TypeScript encoder's float arithmetic is plain IEEE double: no fused multiply-adds.
#pragma clang fp contract(off)

#define MAX_BLOCK_SIZE (128 * 1024)
// Matches are at least 3 bytes long (sequence-store.ts: ceil(MAX_BLOCK_SIZE / 3) + 1).
#define MAX_SEQUENCES ((MAX_BLOCK_SIZE + 2) / 3 + 1)
#define MIN_MATCH 4

#define MAX_LL 35
#define MAX_ML 52
#define MAX_OF 31
#define LL_MAX_LOG 9
#define ML_MAX_LOG 9
#define OF_MAX_LOG 8
#define LL_DEFAULT_LOG 6
#define ML_DEFAULT_LOG 6
#define OF_DEFAULT_LOG 5
// Symbols of any FSE alphabet here (match lengths have the most: 53).
#define FSE_MAX_SYMBOLS 64
#define FSE_MAX_TABLE (1 << 9)

// Per-block stages stay out of line: V8 compiles several mid-size functions with its optimising
// tier much faster than one huge function, and that compilation runs during the first calls.
#define STAGE __attribute__((noinline)) static

static inline void store32(u8 *p, u32 v) { __builtin_memcpy(p, &v, 4); }

static inline void store64(u8 *p, u64 v) { __builtin_memcpy(p, &v, 8); }

/** Index of the highest set bit (-1 for 0, as 31 - Math.clz32(0)). */
static inline i32 high_bit(u32 v) { return v == 0 ? -1 : 31 - __builtin_clz(v); }

static inline i32 min_i32(i32 a, i32 b) { return a < b ? a : b; }
static inline i32 max_i32(i32 a, i32 b) { return a > b ? a : b; }

static inline double bits_to_double(u64 bits) {
  double d;
  __builtin_memcpy(&d, &bits, 8);
  return d;
}

static const u32 LL_BASE[MAX_LL + 1] = {
    0,  1,  2,  3,  4,  5,   6,   7,   8,   9,    10,   11,   12,   13,    14,    15,    16,   18,
    20, 22, 24, 28, 32, 40, 48, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536};
static const u8 LL_BITS[MAX_LL + 1] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  0,  0,  0,  0,  0,  1,  1,
                                       1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
static const u32 ML_BASE[MAX_ML + 1] = {
    3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13,  14,  15,  16,  17,   18,   19,   20,
    21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,  32,  33,  34,  35,   37,   39,   41,
    43, 47, 51, 59, 67, 83, 99, 131, 259, 515, 1027, 2051, 4099, 8195, 16387, 32771, 65539};
static const u8 ML_BITS[MAX_ML + 1] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  0,  0,  0,
                                       0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,  1,  1,  1,
                                       2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};

static const i16 LL_DEFAULT_NORM[MAX_LL + 1] = {4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 2,  2,
                                                2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1, -1, -1, -1, -1};
static const i16 ML_DEFAULT_NORM[MAX_ML + 1] = {1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1,  1,  1,  1,
                                                1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  1,  1,  1,
                                                1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1};
// Offset codes 0..28 only: an offset code above 28 has no state in the predefined table.
#define OF_DEFAULT_SYMBOLS 29
static const i16 OF_DEFAULT_NORM[OF_DEFAULT_SYMBOLS] = {1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1,  1,  1,
                                                        1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1};

/** The literal-length code of a run of `length` bytes. */
static inline u32 literal_length_code(u32 length) {
  static const u8 SMALL[64] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                               16, 16, 17, 17, 18, 18, 19, 19, 20, 20, 20, 20, 21, 21, 21, 21,
                               22, 22, 22, 22, 22, 22, 22, 22, 23, 23, 23, 23, 23, 23, 23, 23,
                               24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24, 24};
  return length < 64 ? SMALL[length] : (u32)high_bit(length) + 19;
}

/** The match-length code of a match of `length` (≥ 3) bytes. */
static inline u32 match_length_code(u32 length) {
  static const u8 SMALL[128] = {
      0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
      22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 32, 33, 33, 34, 34, 35, 35, 36, 36, 36, 36,
      37, 37, 37, 37, 38, 38, 38, 38, 38, 38, 38, 38, 39, 39, 39, 39, 39, 39, 39, 39, 40, 40,
      40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 41, 41, 41, 41, 41, 41, 41, 41,
      41, 41, 41, 41, 41, 41, 41, 41, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42,
      42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42};
  u32 v = length - 3;
  return v < 128 ? SMALL[v] : (u32)high_bit(v) + 36;
}

/**
 * Forward bit writer: bits are appended least-significant first into a 64-bit accumulator
 * and stored 4 bytes at a time. `pos` is exact only after `bw_close` / `bw_align`; the
 * buffer needs 8 bytes of slack past the stream's end.
 */
typedef struct {
  u8 *buf;
  u32 pos;
  u32 bits;
  u64 acc;
} BitWriter;

static inline void bw_init(BitWriter *w, u8 *buf, u32 pos) {
  w->buf = buf;
  w->pos = pos;
  w->bits = 0;
  w->acc = 0;
}

/** Appends the low `n` (≤ 32) bits of `value`. */
static inline void bw_add(BitWriter *w, u32 value, u32 n) {
  u64 mask = (1ull << n) - 1;
  w->acc |= ((u64)value & mask) << w->bits;
  w->bits += n;
  if (w->bits >= 32) {
    store32(w->buf + w->pos, (u32)w->acc);
    w->pos += 4;
    w->acc >>= 32;
    w->bits -= 32;
  }
}

/** Pads to a byte boundary (no end marker); returns the end position. */
static inline u32 bw_align(BitWriter *w) {
  store64(w->buf + w->pos, w->acc);
  w->pos += (w->bits + 7) >> 3;
  w->acc = 0;
  w->bits = 0;
  return w->pos;
}

/** Writes the end marker (a 1-bit) and pads the last byte; returns the end position. */
static inline u32 bw_close(BitWriter *w) {
  bw_add(w, 1, 1);
  return bw_align(w);
}
