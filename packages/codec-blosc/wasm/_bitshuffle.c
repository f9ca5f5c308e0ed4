// Blosc's bit shuffle (the layout of src/bitshuffle.ts): in a block of n elements (n a
// multiple of 8), bit k of byte j of element e goes to bit row 8j + k, byte e / 8, bit
// e % 8. Blocks whose element count is not a multiple of 8 are copied, as c-blosc 1.x does.
//
// The block is worked through in groups of 128 elements, all in cache: the group's bytes
// are byte-shuffled into 128-byte planes (one per byte of the element, in `planes`), and
// each plane's 128 bytes are one 8×8 bit transpose per byte position of 8 vectors. The
// transpose is its own inverse, so the unshuffle runs the same steps backwards. Needs
// _shuffle.c.

// A group of 128 elements byte-shuffled: plane j holds byte j of each element.
#define GROUP 128
#define MAX_TYPESIZE 255
static uint8_t planes[GROUP * MAX_TYPESIZE] __attribute__((aligned(16)));

// Exchanges the bits of b that `mask` selects with the bits `s` places higher in a (a delta
// swap on 64-bit lanes: the mask keeps bits from crossing byte boundaries).
#define SWAP_BITS(a, b, s, mask)                                                     \
  do {                                                                               \
    v128_t t_ = wasm_v128_and(wasm_v128_xor(wasm_u64x2_shr(a, s), b), mask);         \
    b = wasm_v128_xor(b, t_);                                                        \
    a = wasm_v128_xor(a, wasm_i64x2_shl(t_, s));                                     \
  } while (0)

// For every byte position t, transposes the 8×8 bit matrix whose row k is byte t of v[k]:
// afterwards bit m of byte t of v[k] is what bit k of byte t of v[m] was.
static inline void bit_transpose(v128_t v[8]) {
  const v128_t m1 = wasm_i8x16_splat(0x55), m2 = wasm_i8x16_splat(0x33), m4 = wasm_i8x16_splat(0x0f);
  for (int i = 0; i < 8; i += 2) SWAP_BITS(v[i], v[i + 1], 1, m1);
  for (int i = 0; i < 8; i += 4) {
    SWAP_BITS(v[i], v[i + 2], 2, m2);
    SWAP_BITS(v[i + 1], v[i + 3], 2, m2);
  }
  for (int i = 0; i < 4; i++) SWAP_BITS(v[i], v[i + 4], 4, m4);
}

// True when c-blosc 1.x bit-shuffles a block of `size` bytes.
static int bitshuffle_applies(size_t size, size_t typesize) {
  size_t n = typesize == 0 ? 0 : size / typesize;
  return n > 0 && n % 8 == 0;
}

// Bit-shuffles one block of `size` bytes (copies it when the rule above says so).
static void bitshuffle_block(const uint8_t *src, uint8_t *dst, size_t size, size_t typesize) {
  if (!bitshuffle_applies(size, typesize)) {
    __builtin_memcpy(dst, src, size);
    return;
  }
  size_t n = size / typesize;
  size_t row_bytes = n / 8;
  for (size_t first = 0; first < n; first += GROUP) {
    size_t count = n - first < GROUP ? n - first : GROUP;
    size_t bytes = count / 8; // of each bit row in this group
    shuffle_bytes(src + first * typesize, planes, GROUP, count, typesize);
    for (size_t j = 0; j < typesize; j++) {
      v128_t v[8];
      // Plane bytes 8t + m → v[m] byte t (a typesize-8 shuffle of the plane), transposed:
      // v[k] byte t becomes byte t of bit row 8j + k.
      for (int k = 0; k < 8; k++) v[k] = LOAD(planes + j * GROUP + 16 * k);
      shuffle8_regs(v);
      bit_transpose(v);
      uint8_t *row = dst + 8 * j * row_bytes + first / 8;
      if (bytes == 16) {
        for (int k = 0; k < 8; k++) STORE(row + k * row_bytes, v[k]);
      } else {
        // The last, partial group: bytes past `bytes` come from stale plane bytes; drop them.
        uint8_t part[16] __attribute__((aligned(16)));
        for (int k = 0; k < 8; k++) {
          STORE(part, v[k]);
          __builtin_memcpy(row + k * row_bytes, part, bytes);
        }
      }
    }
  }
  __builtin_memcpy(dst + n * typesize, src + n * typesize, size - n * typesize);
}

// The inverse of bitshuffle_block.
static void bitunshuffle_block(const uint8_t *src, uint8_t *dst, size_t size, size_t typesize) {
  if (!bitshuffle_applies(size, typesize)) {
    __builtin_memcpy(dst, src, size);
    return;
  }
  size_t n = size / typesize;
  size_t row_bytes = n / 8;
  for (size_t first = 0; first < n; first += GROUP) {
    size_t count = n - first < GROUP ? n - first : GROUP;
    size_t bytes = count / 8;
    for (size_t j = 0; j < typesize; j++) {
      v128_t v[8];
      const uint8_t *row = src + 8 * j * row_bytes + first / 8;
      if (bytes == 16) {
        for (int k = 0; k < 8; k++) v[k] = LOAD(row + k * row_bytes);
      } else {
        // Only `bytes` bytes of each row belong to this group: never read past them.
        uint8_t part[16] __attribute__((aligned(16))) = {0};
        for (int k = 0; k < 8; k++) {
          __builtin_memcpy(part, row + k * row_bytes, bytes);
          v[k] = LOAD(part);
        }
      }
      bit_transpose(v);
      unshuffle8_regs(v);
      for (int k = 0; k < 8; k++) STORE(planes + j * GROUP + 16 * k, v[k]);
    }
    unshuffle_bytes(planes, GROUP, dst + first * typesize, count, typesize);
  }
  __builtin_memcpy(dst + n * typesize, src + n * typesize, size - n * typesize);
}
