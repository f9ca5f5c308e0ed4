// Shared pieces of the zstd decoder kernel (RFC 8878): integer types, little-endian loads,
// the error codes the kernel returns (src/decoder/kernel-errors.ts maps them to messages), and
// the backward bit reader used by Huffman streams and the sequence bitstream.
//
// Positions are int32 offsets into the input, never pointers compared across objects: a
// reader of a stream shorter than its 8-byte window starts at a virtual offset before the
// stream, and comparing offsets keeps that well defined.
#pragma once

#include <wasm_simd128.h>

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef int i32;
typedef long long i64;

#define ZD_MAX_BLOCK (128 * 1024)

// Error codes (returned negated). Keep in step with src/decoder/kernel-errors.ts.
enum {
  ZD_OK = 0,
  // Frame structure.
  ZD_E_EMPTY_INPUT = 1,
  ZD_E_STRAY_BYTES,
  ZD_E_SKIPPABLE_TRUNCATED,
  ZD_E_BAD_MAGIC,
  ZD_E_HEADER_TRUNCATED,
  ZD_E_RESERVED_BIT,
  ZD_E_DICTIONARY,
  ZD_E_BLOCK_HEADER_TRUNCATED,
  ZD_E_RESERVED_BLOCK_TYPE,
  ZD_E_BLOCK_TOO_LARGE,
  ZD_E_BLOCK_TRUNCATED,
  ZD_E_EMPTY_COMPRESSED_BLOCK,
  ZD_E_CHECKSUM_TRUNCATED,
  ZD_E_CONTENT_SIZE,
  ZD_E_CHECKSUM,
  ZD_E_OUTPUT_FULL,
  ZD_E_PAST_FRAME_SIZE,
  ZD_E_PAST_BLOCK_LIMIT,
  // Literals section.
  ZD_E_EMPTY_HUFFMAN_LITERALS,
  ZD_E_LITERALS_OVERRUN,
  ZD_E_LITERALS_TOO_MANY,
  ZD_E_TREELESS_WITHOUT_TABLE,
  ZD_E_HUF_DESCRIPTION_TRUNCATED,
  ZD_E_HUF_WEIGHTS_EMPTY,
  ZD_E_HUF_WEIGHTS_NO_MARK,
  ZD_E_HUF_WEIGHTS_TOO_MANY,
  ZD_E_HUF_WEIGHT_TOO_LARGE,
  ZD_E_HUF_NO_SYMBOLS,
  ZD_E_HUF_TOO_DEEP,
  ZD_E_HUF_INCOMPLETE,
  ZD_E_HUF_INVALID_TREE,
  ZD_E_HUF_STREAM_EMPTY,
  ZD_E_HUF_STREAM_NO_MARK,
  ZD_E_HUF_NOT_CONSUMED,
  ZD_E_HUF4_TOO_SHORT,
  ZD_E_HUF_JUMP_TABLE_TRUNCATED,
  ZD_E_HUF_JUMP_TABLE_PAST,
  // Sequences section.
  ZD_E_NO_SEQUENCES_SECTION,
  ZD_E_SEQ_HEADER_TRUNCATED,
  ZD_E_BYTES_AFTER_SEQUENCES,
  ZD_E_RESERVED_MODES,
  ZD_E_RLE_TABLE_TRUNCATED,
  ZD_E_RLE_CODE_RANGE,
  ZD_E_FSE_TRUNCATED,
  ZD_E_FSE_LOG,
  ZD_E_FSE_TOO_MANY_SYMBOLS,
  ZD_E_FSE_SUM,
  ZD_E_FSE_FILL,
  ZD_E_REPEAT_WITHOUT_TABLE,
  ZD_E_SEQ_STREAM_EMPTY,
  ZD_E_SEQ_STREAM_NO_MARK,
  ZD_E_OFFSET_CODE,
  ZD_E_SEQ_LITERALS,
  ZD_E_SEQ_OFFSET,
  ZD_E_SEQ_NOT_CONSUMED,
};

static inline u16 zd_load16(const u8* p) {
  u16 v;
  __builtin_memcpy(&v, p, 2);
  return v;
}

static inline u32 zd_load32(const u8* p) {
  u32 v;
  __builtin_memcpy(&v, p, 4);
  return v;
}

static inline u64 zd_load64(const u8* p) {
  u64 v;
  __builtin_memcpy(&v, p, 8);
  return v;
}

static inline void zd_store16(u8* p, u16 v) { __builtin_memcpy(p, &v, 2); }

static inline u32 zd_load24(const u8* p) { return p[0] | (p[1] << 8) | (p[2] << 16); }

static inline u32 zd_min_u32(u32 a, u32 b) { return a < b ? a : b; }

// Backward bit reader (RFC 8878 §4.1.2 bitstreams are read from their last byte down). A
// 64-bit window holds the bytes src[p..p+8); unread bits are taken from its top, `used`
// counts the bits already taken. Refilling moves p back by whole bytes, never below the
// stream start; the bits left are then always (p - start) * 8 + 64 - used, which a valid
// stream brings to exactly 0. A stream shorter than 8 bytes gets a virtual p before its
// start: its bytes are placed in the window once, zeros below them, and never reloaded.
typedef struct {
  u64 bits;
  u32 used;
  i32 p;
  i32 start;
} ZdBits;

// Starts a reader on src[start..end), past the end mark (the highest set bit of the last
// byte). Returns 0, or an error code for an empty stream (`empty`) or a missing mark (`no_mark`).
static inline int zd_bits_init(ZdBits* b, const u8* src, i32 start, i32 end, int empty, int no_mark) {
  if (end <= start) return empty;
  u32 last = src[end - 1];
  if (last == 0) return no_mark;
  b->used = (u32)__builtin_clz(last) - 23;
  b->start = start;
  b->p = end - 8;
  if (end - start >= 8) {
    b->bits = zd_load64(src + b->p);
  } else {
    u64 bits = 0;
    for (i32 i = start; i < end; i++) bits |= (u64)src[i] << (8 * (i - b->p));
    b->bits = bits;
  }
  return 0;
}

static inline void zd_bits_refill(ZdBits* b, const u8* src) {
  i32 n = (i32)(b->used >> 3);
  if (b->p - n >= b->start) {
    b->p -= n;
    b->used &= 7;
    b->bits = zd_load64(src + b->p);
  } else if (b->p > b->start) {
    b->used -= (u32)(b->p - b->start) << 3;
    b->p = b->start;
    b->bits = zd_load64(src + b->p);
  }
}

// The next n (0..57) bits. Over-read streams (used past 64) give garbage bits, never a fault:
// the final count (zd_bits_left) rejects them.
static inline u32 zd_bits_read(ZdBits* b, u32 n) {
  u64 v = ((b->bits << (b->used & 63)) >> 1) >> (63 - n);
  b->used += n;
  return (u32)v;
}

static inline i64 zd_bits_left(const ZdBits* b) { return (i64)(b->p - b->start) * 8 + 64 - (i64)b->used; }

