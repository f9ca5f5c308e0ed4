// LZ4 block decoder (lz4_Block_format.md), with the checks of src/lz4-decode.ts in the same
// order, so corrupt blocks fail with the same problem (LZ4_ERR_*, whose texts are
// LZ4_PROBLEMS in src/lz4-problems.ts).
//
// Runs are copied 16 bytes at a time where those 16 bytes lie inside both the block and
// the output window: the bytes past the run's end are overwritten by the next sequence.
// Nothing outside [dst, dst + dst_len) is written and nothing outside [src, src + src_len)
// is read.
#include <stddef.h>
#include <stdint.h>
#include <wasm_simd128.h>

#define LZ4_ERR_EMPTY 1
#define LZ4_ERR_LITERAL_LENGTH 2
#define LZ4_ERR_LITERALS 3
#define LZ4_ERR_OUTPUT 4
#define LZ4_ERR_OFFSET_TRUNCATED 5
#define LZ4_ERR_MATCH_LENGTH 6
#define LZ4_ERR_OFFSET_ZERO 7
#define LZ4_ERR_OFFSET_BEFORE 8

static inline void copy16(uint8_t *d, const uint8_t *s) { wasm_v128_store(d, wasm_v128_load(s)); }

// A match whose source overlaps its destination (offset < length): the bytes repeat with
// period `offset`, so each copy may be as long as the distance, which doubles every time.
static inline void copy_overlapping(uint8_t *op, const uint8_t *ref, size_t length) {
  uint8_t *end = op + length;
  if (length < 32) {
    while (op < end) *op++ = *ref++;
    return;
  }
  if (op - ref == 1) {
    __builtin_memset(op, *ref, length);
    return;
  }
  while (op < end) {
    size_t n = (size_t)(op - ref);
    if (n > (size_t)(end - op)) n = (size_t)(end - op);
    __builtin_memcpy(op, ref, n);
    op += n;
  }
}

// Adds the length bytes after a token nibble of 15 to *length (each 255 means another byte
// follows; 64 bits, so a run of 255s cannot wrap around): 0, or −err when the block ends first.
static inline int32_t add_length_bytes(const uint8_t *src, size_t src_len, size_t *ip, uint64_t *length, int32_t err) {
  uint32_t b;
  do {
    if (*ip >= src_len) return -err;
    b = src[(*ip)++];
    *length += b;
  } while (b == 255);
  return 0;
}

// Decodes the block src[0, src_len) into dst[0, dst_len); returns the bytes written or
// −LZ4_ERR_*. Matches refer only to bytes this call wrote.
static int32_t lz4_decode(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len) {
  if (src_len == 0) return -LZ4_ERR_EMPTY;
  size_t ip = 0, op = 0;
  for (;;) {
    // A block that ends right after a match lacks its last sequence: like the TypeScript
    // decoder, report the offset that would have followed as truncated.
    if (ip >= src_len) return -LZ4_ERR_OFFSET_TRUNCATED;
    uint32_t token = src[ip++];

    // Literals.
    uint64_t literals = token >> 4;
    if (literals != 0) {
      if (literals == 15 && add_length_bytes(src, src_len, &ip, &literals, LZ4_ERR_LITERAL_LENGTH) != 0) {
        return -LZ4_ERR_LITERAL_LENGTH;
      }
      if (literals > src_len - ip) return -LZ4_ERR_LITERALS;
      if (literals > dst_len - op) return -LZ4_ERR_OUTPUT;
      size_t n = (size_t)literals;
      if (n <= 16 && src_len - ip >= 16 && dst_len - op >= 16) {
        copy16(dst + op, src + ip);
      } else if (n <= 64 && src_len - ip >= n + 15 && dst_len - op >= n + 15) {
        for (size_t k = 0; k < n; k += 16) copy16(dst + op + k, src + ip + k);
      } else {
        __builtin_memcpy(dst + op, src + ip, n);
      }
      ip += n;
      op += n;
    }
    if (ip == src_len) break; // the last sequence has no match

    // Match.
    if (src_len - ip < 2) return -LZ4_ERR_OFFSET_TRUNCATED;
    size_t offset = (size_t)src[ip] | ((size_t)src[ip + 1] << 8);
    ip += 2;
    uint64_t length = (token & 15) + 4;
    if (length == 19 && add_length_bytes(src, src_len, &ip, &length, LZ4_ERR_MATCH_LENGTH) != 0) return -LZ4_ERR_MATCH_LENGTH;
    if (offset == 0) return -LZ4_ERR_OFFSET_ZERO;
    if (offset > op) return -LZ4_ERR_OFFSET_BEFORE;
    if (length > dst_len - op) return -LZ4_ERR_OUTPUT;
    size_t n = (size_t)length;
    uint8_t *out = dst + op;
    const uint8_t *ref = out - offset;
    size_t room = dst_len - op;
    if (offset >= 16 && n <= 16 && room >= 16) {
      copy16(out, ref); // reads only bytes before `out`: offset ≥ 16
    } else if (offset >= 16 && room >= n + 15) {
      for (size_t k = 0; k < n; k += 16) copy16(out + k, ref + k);
    } else if (offset >= n) {
      __builtin_memcpy(out, ref, n);
    } else {
      copy_overlapping(out, ref, n);
    }
    op += n;
  }
  return (int32_t)op;
}
