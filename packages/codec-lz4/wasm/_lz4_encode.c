// LZ4 block encoder, fast variant: the match finding of src/lz4-encode.ts step for step
// (one 4096-entry hash table of 4-byte sequences, greedy matches extended backwards and
// forwards, LZ4's acceleration), so it writes the same bytes as the TypeScript encoder.
#include <stddef.h>
#include <stdint.h>

#define LZ4_LAST_LITERALS 5
#define LZ4_MF_LIMIT 12
#define LZ4_MAX_OFFSET 65535
#define LZ4_HASH_LOG 12

static uint32_t lz4_table[1 << LZ4_HASH_LOG];

// Words read at any byte position (WebAssembly loads need no alignment; may_alias lets
// them read byte buffers).
typedef uint32_t any_u32 __attribute__((aligned(1), may_alias));
typedef uint64_t any_u64 __attribute__((aligned(1), may_alias));
#define read32(p) (*(const any_u32 *)(p))
#define read64(p) (*(const any_u64 *)(p))

static inline uint32_t lz4_hash(uint32_t seq) { return (seq * 2654435761u) >> (32 - LZ4_HASH_LOG); }

// The first position from `end` (below `limit`) where src differs from the bytes at `r`.
static inline size_t match_end(const uint8_t *src, size_t end, size_t r, size_t limit) {
  while (end + 8 <= limit) {
    uint64_t diff = read64(src + end) ^ read64(src + r);
    if (diff != 0) return end + (__builtin_ctzll(diff) >> 3);
    end += 8;
    r += 8;
  }
  while (end < limit && src[end] == src[r]) {
    end++;
    r++;
  }
  return end;
}

// Writes a length's bytes past the token's 15: 255, 255, ..., the remainder.
static inline size_t write_length(size_t rest, uint8_t *out, size_t op) {
  while (rest >= 255) {
    out[op++] = 255;
    rest -= 255;
  }
  out[op++] = (uint8_t)rest;
  return op;
}

// One sequence (literals, then a match); returns the new output position, or −1 when it
// might not fit before `cap` (the bound of src/lz4-write.ts, so both give up alike).
static int64_t write_sequence(const uint8_t *src, size_t lit_start, size_t lit, size_t offset, size_t match,
                              uint8_t *out, size_t op, size_t cap) {
  size_t worst = lit + lit / 255 + match / 255 + 5;
  if (op + worst > cap) return -1;
  size_t token_at = op++;
  uint8_t token;
  if (lit >= 15) {
    token = 0xf0;
    op = write_length(lit - 15, out, op);
  } else {
    token = (uint8_t)(lit << 4);
  }
  __builtin_memcpy(out + op, src + lit_start, lit);
  op += lit;
  out[op++] = (uint8_t)offset;
  out[op++] = (uint8_t)(offset >> 8);
  size_t ml = match - 4;
  if (ml >= 15) {
    token |= 15;
    op = write_length(ml - 15, out, op);
  } else {
    token |= (uint8_t)ml;
  }
  out[token_at] = token;
  return (int64_t)op;
}

// The final, literals-only sequence; −1 when it might not fit.
static int64_t write_last_literals(const uint8_t *src, size_t lit_start, size_t lit, uint8_t *out, size_t op, size_t cap) {
  size_t worst = lit + lit / 255 + 2;
  if (op + worst > cap) return -1;
  if (lit >= 15) {
    out[op++] = 0xf0;
    op = write_length(lit - 15, out, op);
  } else {
    out[op++] = (uint8_t)(lit << 4);
  }
  __builtin_memcpy(out + op, src + lit_start, lit);
  return (int64_t)(op + lit);
}

// Compresses src[0, n) as one block into out[0, cap); returns the bytes written, or 0 when
// the block does not fit. `accel` is at least 1 (the caller clamps it).
static size_t lz4_encode(const uint8_t *src, size_t n, uint8_t *out, size_t cap, uint32_t accel) {
  int64_t op = 0;
  size_t anchor = 0;
  if (n > LZ4_MF_LIMIT) {
    __builtin_memset(lz4_table, 0, sizeof lz4_table);
    size_t last_match_start = n - LZ4_MF_LIMIT;
    size_t match_limit = n - LZ4_LAST_LITERALS;
    size_t ip = 1;
    lz4_table[lz4_hash(read32(src))] = 0;
    for (;;) {
      // Find a 4-byte match, stepping faster through data that does not compress.
      uint64_t searches = (uint64_t)accel << 6;
      size_t ref;
      for (;;) {
        if (ip > last_match_start) goto last;
        uint32_t seq = read32(src + ip);
        uint32_t h = lz4_hash(seq);
        ref = lz4_table[h];
        lz4_table[h] = (uint32_t)ip;
        if (ref < ip && ip - ref <= LZ4_MAX_OFFSET && read32(src + ref) == seq) break;
        ip += (size_t)(searches++ >> 6);
      }
      while (ip > anchor && ref > 0 && src[ip - 1] == src[ref - 1]) {
        ip--;
        ref--;
      }
      size_t end = match_end(src, ip + 4, ref + 4, match_limit);
      op = write_sequence(src, anchor, ip - anchor, ip - ref, end - ip, out, (size_t)op, cap);
      if (op < 0) return 0;
      ip = end;
      anchor = end;
      if (ip > last_match_start) break;
      // Remember a position inside the match, as LZ4 does, for the next search.
      lz4_table[lz4_hash(read32(src + ip - 2))] = (uint32_t)(ip - 2);
    }
  }
last:
  op = write_last_literals(src, anchor, n - anchor, out, (size_t)op, cap);
  return op < 0 ? 0 : (size_t)op;
}
