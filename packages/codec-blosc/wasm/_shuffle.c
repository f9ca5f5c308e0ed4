// Blosc's byte shuffle (the layout of src/shuffle.ts): within a block of n elements of
// `typesize` bytes, byte j of element i moves to stream j, position i. Here the streams
// are `stride` bytes apart (n for a whole block; bitshuffle.c also uses 128), so the same
// loops serve whole blocks and the bit shuffle's 128-element groups.
//
// Element sizes 2, 4 and 8 move 16 elements per step in registers: one byte permutation
// inside each vector gathers each element group's bytes by significance, then a transpose
// of 16-, 32- or 64-bit lanes across the vectors. Both steps are their own inverses, so
// the unshuffle runs the same transpose and the inverse permutation. Other sizes, and
// the last n % 16 elements, take byte loops.
#include <stddef.h>
#include <stdint.h>
#include <wasm_simd128.h>

#define LOAD(p) wasm_v128_load(p)
#define STORE(p, v) wasm_v128_store((p), (v))

// Lane interleaves (punpckl/h on x86): the low or high halves of a and b, alternating.
#define LO16(a, b) wasm_i16x8_shuffle(a, b, 0, 8, 1, 9, 2, 10, 3, 11)
#define HI16(a, b) wasm_i16x8_shuffle(a, b, 4, 12, 5, 13, 6, 14, 7, 15)
#define LO32(a, b) wasm_i32x4_shuffle(a, b, 0, 4, 1, 5)
#define HI32(a, b) wasm_i32x4_shuffle(a, b, 2, 6, 3, 7)
#define LO64(a, b) wasm_i64x2_shuffle(a, b, 0, 2)
#define HI64(a, b) wasm_i64x2_shuffle(a, b, 1, 3)

// Byte permutations inside one vector of whole elements: element-major to
// significance-major (GATHER), and back (SCATTER).
#define GATHER2(v) wasm_i8x16_shuffle(v, v, 0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15)
#define SCATTER2(v) wasm_i8x16_shuffle(v, v, 0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15)
#define GATHER4(v) wasm_i8x16_shuffle(v, v, 0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15)
#define SCATTER4(v) GATHER4(v)
#define GATHER8(v) SCATTER2(v)
#define SCATTER8(v) GATHER2(v)

// Transposes 4 vectors as a 4×4 matrix of 32-bit lanes (lane j of v[i] ↔ lane i of v[j]).
static inline void transpose32(v128_t v[4]) {
  v128_t a = LO32(v[0], v[1]), b = HI32(v[0], v[1]), c = LO32(v[2], v[3]), d = HI32(v[2], v[3]);
  v[0] = LO64(a, c);
  v[1] = HI64(a, c);
  v[2] = LO64(b, d);
  v[3] = HI64(b, d);
}

// Transposes 8 vectors as an 8×8 matrix of 16-bit lanes.
static inline void transpose16(v128_t v[8]) {
  v128_t a[8], b[8];
  for (int i = 0; i < 8; i += 2) {
    a[i] = LO16(v[i], v[i + 1]);
    a[i + 1] = HI16(v[i], v[i + 1]);
  }
  for (int i = 0; i < 8; i += 4) {
    b[i] = LO32(a[i], a[i + 2]);
    b[i + 1] = HI32(a[i], a[i + 2]);
    b[i + 2] = LO32(a[i + 1], a[i + 3]);
    b[i + 3] = HI32(a[i + 1], a[i + 3]);
  }
  for (int i = 0; i < 4; i++) {
    v[2 * i] = LO64(b[i], b[i + 4]);
    v[2 * i + 1] = HI64(b[i], b[i + 4]);
  }
}

// 16 elements of 8 bytes (v[i]: elements 2i, 2i+1) become 8 streams of 16 bytes, in place.
static inline void shuffle8_regs(v128_t v[8]) {
  for (int i = 0; i < 8; i++) v[i] = GATHER8(v[i]);
  transpose16(v);
}

// The inverse of shuffle8_regs.
static inline void unshuffle8_regs(v128_t v[8]) {
  transpose16(v);
  for (int i = 0; i < 8; i++) v[i] = SCATTER8(v[i]);
}

// Elements → streams: byte j of element i of `src` goes to dst[j * stride + i], for n elements.
static void shuffle_bytes(const uint8_t *src, uint8_t *dst, size_t stride, size_t n, size_t typesize) {
  size_t i = 0;
  size_t vn = n & ~(size_t)15;
  if (typesize == 2) {
    for (; i < vn; i += 16) {
      v128_t a = GATHER2(LOAD(src + 2 * i)), b = GATHER2(LOAD(src + 2 * i + 16));
      STORE(dst + i, LO64(a, b));
      STORE(dst + stride + i, HI64(a, b));
    }
  } else if (typesize == 4) {
    for (; i < vn; i += 16) {
      v128_t v[4];
      for (int k = 0; k < 4; k++) v[k] = GATHER4(LOAD(src + 4 * i + 16 * k));
      transpose32(v);
      for (int k = 0; k < 4; k++) STORE(dst + k * stride + i, v[k]);
    }
  } else if (typesize == 8) {
    for (; i < vn; i += 16) {
      v128_t v[8];
      for (int k = 0; k < 8; k++) v[k] = LOAD(src + 8 * i + 16 * k);
      shuffle8_regs(v);
      for (int k = 0; k < 8; k++) STORE(dst + k * stride + i, v[k]);
    }
  }
  for (size_t j = 0; j < typesize; j++) {
    uint8_t *d = dst + j * stride;
    for (size_t e = i; e < n; e++) d[e] = src[e * typesize + j];
  }
}

// Streams → elements: the inverse of shuffle_bytes.
static void unshuffle_bytes(const uint8_t *src, size_t stride, uint8_t *dst, size_t n, size_t typesize) {
  size_t i = 0;
  size_t vn = n & ~(size_t)15;
  if (typesize == 2) {
    for (; i < vn; i += 16) {
      v128_t a = LOAD(src + i), b = LOAD(src + stride + i);
      STORE(dst + 2 * i, SCATTER2(LO64(a, b)));
      STORE(dst + 2 * i + 16, SCATTER2(HI64(a, b)));
    }
  } else if (typesize == 4) {
    for (; i < vn; i += 16) {
      v128_t v[4];
      for (int k = 0; k < 4; k++) v[k] = LOAD(src + k * stride + i);
      transpose32(v);
      for (int k = 0; k < 4; k++) STORE(dst + 4 * i + 16 * k, SCATTER4(v[k]));
    }
  } else if (typesize == 8) {
    for (; i < vn; i += 16) {
      v128_t v[8];
      for (int k = 0; k < 8; k++) v[k] = LOAD(src + k * stride + i);
      unshuffle8_regs(v);
      for (int k = 0; k < 8; k++) STORE(dst + 8 * i + 16 * k, v[k]);
    }
  }
  for (size_t j = 0; j < typesize; j++) {
    const uint8_t *s = src + j * stride;
    for (size_t e = i; e < n; e++) dst[e * typesize + j] = s[e];
  }
}

// Byte-shuffles (`forward`) or unshuffles one block of `size` bytes: a typesize of 1, or
// fewer bytes than one element, copies it; the bytes after the last whole element are
// copied unchanged.
static void shuffle_block(const uint8_t *src, uint8_t *dst, size_t size, size_t typesize, int forward) {
  size_t n = typesize == 0 ? 0 : size / typesize;
  if (typesize <= 1 || n == 0) {
    __builtin_memcpy(dst, src, size);
    return;
  }
  if (forward) shuffle_bytes(src, dst, n, n, typesize);
  else unshuffle_bytes(src, n, dst, n, typesize);
  __builtin_memcpy(dst + n * typesize, src + n * typesize, size - n * typesize);
}
