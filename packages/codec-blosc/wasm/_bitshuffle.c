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

// Stores 8 vectors as `bytes` bytes of 8 bit rows `row_bytes` apart (16 but in the last,
// partial group, whose other bytes come from stale plane bytes and are dropped).
static inline void store_rows(uint8_t *row, size_t row_bytes, const v128_t v[8], size_t bytes) {
  uint8_t part[16] __attribute__((aligned(16)));
  for (int k = 0; k < 8; k++) {
    if (bytes == 16) {
      STORE(row + k * row_bytes, v[k]);
    } else {
      STORE(part, v[k]);
      __builtin_memcpy(row + k * row_bytes, part, bytes);
    }
  }
}

// Loads `bytes` bytes of 8 bit rows `row_bytes` apart into 8 vectors, never reading past them.
static inline void load_rows(const uint8_t *row, size_t row_bytes, v128_t v[8], size_t bytes) {
  uint8_t part[16] __attribute__((aligned(16))) = {0};
  for (int k = 0; k < 8; k++) {
    if (bytes == 16) {
      v[k] = LOAD(row + k * row_bytes);
    } else {
      __builtin_memcpy(part, row + k * row_bytes, bytes);
      v[k] = LOAD(part);
    }
  }
}

// Bit-shuffles `count` elements (a multiple of 8, at most GROUP) into the bit rows from `rows`.
static void shuffle_group(const uint8_t *elements, uint8_t *rows, size_t row_bytes, size_t count, size_t typesize) {
  shuffle_bytes(elements, planes, GROUP, count, typesize);
  for (size_t j = 0; j < typesize; j++) {
    v128_t v[8];
    // Plane bytes 8t + m → v[m] byte t (a typesize-8 shuffle of the plane), transposed:
    // v[k] byte t becomes byte t of bit row 8j + k.
    for (int k = 0; k < 8; k++) v[k] = LOAD(planes + j * GROUP + 16 * k);
    shuffle8_regs(v);
    bit_transpose(v);
    store_rows(rows + 8 * j * row_bytes, row_bytes, v, count / 8);
  }
}

// The inverse of shuffle_group.
static void unshuffle_group(const uint8_t *rows, size_t row_bytes, uint8_t *elements, size_t count, size_t typesize) {
  for (size_t j = 0; j < typesize; j++) {
    v128_t v[8];
    load_rows(rows + 8 * j * row_bytes, row_bytes, v, count / 8);
    bit_transpose(v);
    unshuffle8_regs(v);
    for (int k = 0; k < 8; k++) STORE(planes + j * GROUP + 16 * k, v[k]);
  }
  unshuffle_bytes(planes, GROUP, elements, count, typesize);
}

// Bit-shuffles (`forward`) or unshuffles one block of `size` bytes; copies it when c-blosc
// does not bit-shuffle it, and copies the bytes after the last whole element.
static void bitshuffle_block(const uint8_t *src, uint8_t *dst, size_t size, size_t typesize, int forward) {
  if (!bitshuffle_applies(size, typesize)) {
    __builtin_memcpy(dst, src, size);
    return;
  }
  size_t n = size / typesize;
  size_t row_bytes = n / 8;
  for (size_t first = 0; first < n; first += GROUP) {
    size_t count = n - first < GROUP ? n - first : GROUP;
    if (forward) shuffle_group(src + first * typesize, dst + first / 8, row_bytes, count, typesize);
    else unshuffle_group(src + first / 8, row_bytes, dst + first * typesize, count, typesize);
  }
  __builtin_memcpy(dst + n * typesize, src + n * typesize, size - n * typesize);
}
