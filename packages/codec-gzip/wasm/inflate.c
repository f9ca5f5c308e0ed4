// The codec-gzip inflate kernel (src/inflate-kernel.ts calls it): deflate (RFC 1951) inside a
// zlib (RFC 1950) or gzip (RFC 1952) wrapper, or raw, decoded from src[0, n) into
// dst[0, cap). Written from the RFCs.
//
// Bounds: nothing outside [src, src + n) is read; writes stay inside [dst, dst + cap + 64)
// (match copies may run up to 63 bytes past a match's end, into bytes a later symbol
// overwrites or into that slack), and output past `cap` is never produced: the call stops with
// INF_ERR_OUTPUT instead. Corrupt data gives a coded error (INF_ERR_*, whose texts are
// INFLATE_PROBLEMS in src/inflate-kernel.ts), never a trap.
//
// gzip: every member is decoded (their outputs concatenated), each trailer's CRC-32 and
// length checked; zero bytes may follow the last member. zlib: the header check, no preset
// dictionary, the Adler-32; bytes after it are ignored (as node:zlib and Python's zlib do).
#include <stddef.h>
#include <stdint.h>
#include <wasm_simd128.h>

#define INF_ERR_OUTPUT 1         // the output would pass `cap`
#define INF_ERR_TRUNCATED 2      // the input ends inside the stream
#define INF_ERR_HEADER 3         // a bad gzip/zlib header
#define INF_ERR_BLOCK_TYPE 4     // block type 3
#define INF_ERR_STORED_LENGTH 5  // a stored block's LEN and NLEN disagree
#define INF_ERR_CODE_LENGTHS 6   // an over-subscribed or unusable Huffman code
#define INF_ERR_SYMBOL 7         // a code no symbol has, or symbols 286-287 / 30-31
#define INF_ERR_DISTANCE 8       // a distance before the start of the output
#define INF_ERR_CHECKSUM 9       // CRC-32 or Adler-32 mismatch
#define INF_ERR_SIZE 10          // gzip ISIZE mismatch
#define INF_ERR_TRAILING 11      // zero bytes between gzip members
#define INF_ERR_DICTIONARY 12    // a zlib preset dictionary
#define INF_ERR_FORMAT 13        // an unknown format argument

#define FORMAT_RAW 0
#define FORMAT_ZLIB 1
#define FORMAT_GZIP 2

// --- Huffman tables ---------------------------------------------------------------------
// An entry (uint32): bits 0-3 the code's length in bits, 4-7 the count of extra bits that
// follow it (for a subtable link: the subtable's index bits), 8-10 the kind, 16-31 the value
// (literal byte, length or distance base, subtable offset).
#define KIND_LITERAL 0
#define KIND_LENGTH 1
#define KIND_END 2
#define KIND_LINK 3
#define KIND_BAD 4
#define ENTRY(kind, len, extra, value) ((uint32_t)(len) | ((uint32_t)(extra) << 4) | ((uint32_t)(kind) << 8) | ((uint32_t)(value) << 16))
#define E_LEN(e) ((e) & 15)
#define E_EXTRA(e) (((e) >> 4) & 15)
#define E_KIND(e) (((e) >> 8) & 7)
#define E_VALUE(e) ((e) >> 16)

#define LIT_BITS 10
#define DIST_BITS 8
#define CODELEN_BITS 7
#define MAX_BITS 15
// The primary table, then at most one subtable per symbol, each of at most 2^(15 - bits).
#define LIT_TABLE_SIZE ((1 << LIT_BITS) + 288 * (1 << (MAX_BITS - LIT_BITS)))
#define DIST_TABLE_SIZE ((1 << DIST_BITS) + 32 * (1 << (MAX_BITS - DIST_BITS)))

static uint32_t lit_table[LIT_TABLE_SIZE];
static uint32_t dist_table[DIST_TABLE_SIZE];
static uint32_t fixed_lit[LIT_TABLE_SIZE];
static uint32_t fixed_dist[DIST_TABLE_SIZE];
static uint32_t codelen_table[1 << CODELEN_BITS];
static int fixed_built;

static const uint16_t LENGTH_BASE[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                         31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t LENGTH_EXTRA[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint16_t DIST_BASE[30] = {1,   2,   3,   4,   5,   7,    9,    13,   17,   25,   33,   49,   65,    97,    129,
                                       193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
static const uint8_t DIST_EXTRA[30] = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
static const uint8_t CODELEN_ORDER[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

// What symbol `sym` of an alphabet decodes to. kind 0: literal/length alphabet; 1: distances;
// 2: code length codes (the value is the symbol).
static uint32_t symbol_entry(int alphabet, uint32_t sym, uint32_t len) {
  if (alphabet == 0) {
    if (sym < 256) return ENTRY(KIND_LITERAL, len, 0, sym);
    if (sym == 256) return ENTRY(KIND_END, len, 0, 0);
    if (sym < 286) return ENTRY(KIND_LENGTH, len, LENGTH_EXTRA[sym - 257], LENGTH_BASE[sym - 257]);
    return ENTRY(KIND_BAD, len, 0, 0);
  }
  if (alphabet == 1) return sym < 30 ? ENTRY(KIND_LENGTH, len, DIST_EXTRA[sym], DIST_BASE[sym]) : ENTRY(KIND_BAD, len, 0, 0);
  return ENTRY(KIND_LITERAL, len, 0, sym);
}

static inline uint32_t reverse_bits(uint32_t code, uint32_t len) {
  return __builtin_bitreverse32(code) >> (32 - len);
}

// Builds the decoding table of a canonical Huffman code (RFC 1951 3.2.2) from the code
// lengths of `count` symbols: a primary table indexed by the next `bits` bits of input,
// whose entries for codes longer than `bits` link to a subtable indexed by the bits after.
// Codes may be incomplete (the unused entries decode as KIND_BAD); over-subscribed codes
// are refused. Returns 0 or −INF_ERR_CODE_LENGTHS.
static int build_table(uint32_t *table, const uint8_t *lengths, uint32_t count, uint32_t bits, int alphabet) {
  uint32_t bl_count[MAX_BITS + 1] = {0};
  for (uint32_t s = 0; s < count; s++) bl_count[lengths[s]]++;
  bl_count[0] = 0;
  int32_t left = 1;
  for (uint32_t len = 1; len <= MAX_BITS; len++) {
    left = (left << 1) - (int32_t)bl_count[len];
    if (left < 0) return -INF_ERR_CODE_LENGTHS;
  }
  uint32_t next_code[MAX_BITS + 2];
  uint32_t code = 0;
  for (uint32_t len = 1; len <= MAX_BITS; len++) {
    code = (code + bl_count[len - 1]) << 1;
    next_code[len] = code;
  }
  uint32_t primary = 1u << bits;
  for (uint32_t i = 0; i < primary; i++) table[i] = ENTRY(KIND_BAD, 1, 0, 0);
  // Longest code under each primary index, to size its subtable.
  uint8_t longest[1 << LIT_BITS];
  for (uint32_t i = 0; i < primary; i++) longest[i] = 0;
  uint32_t codes[288];
  for (uint32_t s = 0; s < count; s++) {
    uint32_t len = lengths[s];
    if (len == 0) continue;
    codes[s] = reverse_bits(next_code[len]++, len);
    if (len > bits) {
      uint32_t at = codes[s] & (primary - 1);
      if (len > longest[at]) longest[at] = (uint8_t)len;
    }
  }
  uint32_t end = primary;
  for (uint32_t i = 0; i < primary; i++) {
    if (longest[i] == 0) continue;
    uint32_t sub_bits = longest[i] - bits;
    table[i] = ENTRY(KIND_LINK, bits, sub_bits, end);
    for (uint32_t j = 0; j < (1u << sub_bits); j++) table[end + j] = ENTRY(KIND_BAD, 1, 0, 0);
    end += 1u << sub_bits;
  }
  for (uint32_t s = 0; s < count; s++) {
    uint32_t len = lengths[s];
    if (len == 0) continue;
    uint32_t entry = symbol_entry(alphabet, s, len);
    uint32_t c = codes[s];
    if (len <= bits) {
      for (uint32_t i = c; i < primary; i += 1u << len) table[i] = entry;
    } else {
      uint32_t link = table[c & (primary - 1)];
      uint32_t *sub = table + E_VALUE(link);
      uint32_t sub_size = 1u << E_EXTRA(link);
      for (uint32_t i = c >> bits; i < sub_size; i += 1u << (len - bits)) sub[i] = entry;
    }
  }
  return 0;
}

static void build_fixed(void) {
  uint8_t lengths[320];
  uint32_t s = 0;
  for (; s < 144; s++) lengths[s] = 8;
  for (; s < 256; s++) lengths[s] = 9;
  for (; s < 280; s++) lengths[s] = 7;
  for (; s < 288; s++) lengths[s] = 8;
  build_table(fixed_lit, lengths, 288, LIT_BITS, 0);
  for (s = 0; s < 32; s++) lengths[s] = 5;
  build_table(fixed_dist, lengths, 32, DIST_BITS, 1);
  fixed_built = 1;
}

// --- Bit input ----------------------------------------------------------------------------
// Bits are taken from the low end of `bits` (RFC 1951 packs them from each byte's least
// significant bit). Past the end of the input the buffer fills with zero bytes; `pos` then
// passes `n`, and the stream is truncated once it uses any of them (checked by overran()).
typedef struct {
  const uint8_t *src;
  size_t n;
  size_t pos;  // the next byte to load
  uint64_t bits;
  uint32_t count;  // valid bits in `bits`
} Input;

static inline uint64_t load64(const uint8_t *p) {
  uint64_t v;
  __builtin_memcpy(&v, p, 8);
  return v;
}

// Afterwards at least 56 bits are in the buffer.
static inline void refill(Input *in) {
  if (in->pos + 8 <= in->n) {
    in->bits |= load64(in->src + in->pos) << in->count;
    in->pos += (63 - in->count) >> 3;
    in->count |= 56;
  } else {
    while (in->count <= 56) {
      uint64_t b = in->pos < in->n ? in->src[in->pos] : 0;
      in->bits |= b << in->count;
      in->pos++;
      in->count += 8;
    }
  }
}

// True when the bits used so far include zero bytes past the end of the input.
static inline int overran(const Input *in) {
  return in->pos > in->n && (in->pos - in->n) * 8 > in->count;
}

static inline uint32_t take(Input *in, uint32_t k) {
  uint32_t v = (uint32_t)(in->bits & ((1ull << k) - 1));
  in->bits >>= k;
  in->count -= k;
  return v;
}

// Drops the bits to the next byte boundary and returns the buffered whole bytes to the
// input, so that `pos` is the next unread byte (for stored blocks and trailers).
static inline void align_to_byte(Input *in) {
  take(in, in->count & 7);
  in->pos -= in->count >> 3;
  in->bits = 0;
  in->count = 0;
}

// --- Blocks -------------------------------------------------------------------------------
static inline uint32_t decode_entry(const uint32_t *table, uint32_t bits, uint64_t buffer) {
  uint32_t e = table[buffer & ((1u << bits) - 1)];
  if (E_KIND(e) == KIND_LINK) e = table[E_VALUE(e) + ((uint32_t)(buffer >> bits) & ((1u << E_EXTRA(e)) - 1))];
  return e;
}

// Reads a dynamic block's code lengths and builds lit_table and dist_table.
static int read_dynamic_tables(Input *in) {
  refill(in);
  uint32_t hlit = take(in, 5) + 257, hdist = take(in, 5) + 1, hclen = take(in, 4) + 4;
  if (hlit > 286 || hdist > 30) return -INF_ERR_CODE_LENGTHS;
  uint8_t lengths[320];
  for (uint32_t i = 0; i < 19; i++) lengths[i] = 0;
  for (uint32_t i = 0; i < hclen; i++) {
    if (in->count < 3) refill(in);
    lengths[CODELEN_ORDER[i]] = (uint8_t)take(in, 3);
  }
  int r = build_table(codelen_table, lengths, 19, CODELEN_BITS, 2);
  if (r < 0) return r;
  uint32_t total = hlit + hdist;
  for (uint32_t i = 0; i < total;) {
    refill(in);
    if (overran(in)) return -INF_ERR_TRUNCATED;
    uint32_t e = codelen_table[in->bits & ((1u << CODELEN_BITS) - 1)];
    if (E_KIND(e) == KIND_BAD) return -INF_ERR_CODE_LENGTHS;
    take(in, E_LEN(e));
    uint32_t sym = E_VALUE(e);
    if (sym < 16) {
      lengths[i++] = (uint8_t)sym;
      continue;
    }
    uint32_t repeat, value = 0;
    if (sym == 16) {
      if (i == 0) return -INF_ERR_CODE_LENGTHS;
      value = lengths[i - 1];
      repeat = 3 + take(in, 2);
    } else if (sym == 17) {
      repeat = 3 + take(in, 3);
    } else {
      repeat = 11 + take(in, 7);
    }
    if (i + repeat > total) return -INF_ERR_CODE_LENGTHS;
    while (repeat--) lengths[i++] = (uint8_t)value;
  }
  if (overran(in)) return -INF_ERR_TRUNCATED;
  if (lengths[256] == 0) return -INF_ERR_CODE_LENGTHS;  // no end-of-block code
  r = build_table(lit_table, lengths, hlit, LIT_BITS, 0);
  if (r < 0) return r;
  return build_table(dist_table, lengths + hlit, hdist, DIST_BITS, 1);
}

static inline void copy_match(uint8_t *op, size_t dist, size_t len) {
  const uint8_t *from = op - dist;
  uint8_t *end = op + len;
  if (dist >= 16) {
    do {
      wasm_v128_store(op, wasm_v128_load(from));
      op += 16;
      from += 16;
    } while (op < end);
  } else if (dist >= 8) {
    do {
      __builtin_memcpy(op, from, 8);
      op += 8;
      from += 8;
    } while (op < end);
  } else if (dist == 1) {
    v128_t v = wasm_i8x16_splat(*from);
    do {
      wasm_v128_store(op, v);
      op += 16;
    } while (op < end);
  } else {
    while (op < end) *op++ = *from++;
  }
}

// Decodes the Huffman-coded data of one block with the given tables into dst from *op;
// `start` is where this stream's output began (distances cannot reach before it). The bit
// buffer lives in locals here: through the Input pointer every store to dst could alias it,
// and the compiler would reload it after each one.
static int decode_huffman(Input *input, const uint32_t *lit, const uint32_t *dist, uint8_t *dst, size_t *op_io, size_t cap, size_t start) {
  Input in = *input;
  size_t op = *op_io;
  int result;
  for (;;) {
    refill(&in);
    // Only zero bytes past the end are coming in: stop once the stream has used them.
    if (in.pos > in.n && overran(&in)) {
      result = -INF_ERR_TRUNCATED;
      break;
    }
    uint32_t e = decode_entry(lit, LIT_BITS, in.bits);
    uint32_t kind = E_KIND(e);
    if (kind == KIND_LITERAL) {
      // Up to three literals from one refill (56 bits hold three codes of up to 15 bits).
      if (cap - op < 3) {
        if (op >= cap) {
          result = -INF_ERR_OUTPUT;
          break;
        }
        take(&in, E_LEN(e));
        dst[op++] = (uint8_t)E_VALUE(e);
        continue;
      }
      take(&in, E_LEN(e));
      dst[op++] = (uint8_t)E_VALUE(e);
      e = decode_entry(lit, LIT_BITS, in.bits);
      kind = E_KIND(e);
      if (kind == KIND_LITERAL) {
        take(&in, E_LEN(e));
        dst[op++] = (uint8_t)E_VALUE(e);
        e = decode_entry(lit, LIT_BITS, in.bits);
        kind = E_KIND(e);
        if (kind == KIND_LITERAL) {
          take(&in, E_LEN(e));
          dst[op++] = (uint8_t)E_VALUE(e);
          continue;
        }
      }
      refill(&in);
    }
    if (kind == KIND_END) {
      take(&in, E_LEN(e));
      result = overran(&in) ? -INF_ERR_TRUNCATED : 0;
      break;
    }
    if (kind != KIND_LENGTH) {
      result = overran(&in) ? -INF_ERR_TRUNCATED : -INF_ERR_SYMBOL;
      break;
    }
    // Length code (≤ 15 + 5 bits) and distance code (≤ 15 + 13 bits) fit the 56 buffered bits.
    uint32_t len_bits = E_LEN(e), extra = E_EXTRA(e);
    uint32_t length = E_VALUE(e) + ((uint32_t)(in.bits >> len_bits) & ((1u << extra) - 1));
    take(&in, len_bits + extra);
    e = decode_entry(dist, DIST_BITS, in.bits);
    if (E_KIND(e) != KIND_LENGTH) {
      result = overran(&in) ? -INF_ERR_TRUNCATED : -INF_ERR_SYMBOL;
      break;
    }
    len_bits = E_LEN(e);
    extra = E_EXTRA(e);
    uint32_t distance = E_VALUE(e) + ((uint32_t)(in.bits >> len_bits) & ((1u << extra) - 1));
    take(&in, len_bits + extra);
    if (overran(&in)) {
      result = -INF_ERR_TRUNCATED;
      break;
    }
    if (distance > op - start) {
      result = -INF_ERR_DISTANCE;
      break;
    }
    if (length > cap - op) {
      result = -INF_ERR_OUTPUT;
      break;
    }
    copy_match(dst + op, distance, length);
    op += length;
  }
  *input = in;
  *op_io = op;
  return result;
}

// Decodes one deflate stream (all its blocks) into dst from *op.
static int inflate_stream(Input *in, uint8_t *dst, size_t *op, size_t cap) {
  size_t start = *op;
  for (;;) {
    refill(in);
    uint32_t final = take(in, 1);
    uint32_t type = take(in, 2);
    int r;
    if (type == 0) {
      align_to_byte(in);
      if (in->pos + 4 > in->n) return -INF_ERR_TRUNCATED;
      const uint8_t *p = in->src + in->pos;
      uint32_t len = p[0] | (p[1] << 8), nlen = p[2] | (p[3] << 8);
      if ((len ^ 0xffff) != nlen) return -INF_ERR_STORED_LENGTH;
      in->pos += 4;
      if (len > in->n - in->pos) return -INF_ERR_TRUNCATED;
      if (len > cap - *op) return -INF_ERR_OUTPUT;
      __builtin_memcpy(dst + *op, in->src + in->pos, len);
      *op += len;
      in->pos += len;
      r = 0;
    } else if (type == 1) {
      if (!fixed_built) build_fixed();
      r = decode_huffman(in, fixed_lit, fixed_dist, dst, op, cap, start);
    } else if (type == 2) {
      r = read_dynamic_tables(in);
      if (r == 0) r = decode_huffman(in, lit_table, dist_table, dst, op, cap, start);
    } else {
      return overran(in) ? -INF_ERR_TRUNCATED : -INF_ERR_BLOCK_TYPE;
    }
    if (r < 0) return r;
    if (final) {
      align_to_byte(in);
      return 0;
    }
  }
}

// --- Checksums ----------------------------------------------------------------------------
static uint32_t crc_table[8][256];
static int crc_built;

static void build_crc(void) {
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1)));
    crc_table[0][i] = c;
  }
  for (uint32_t i = 0; i < 256; i++) {
    for (int t = 1; t < 8; t++) crc_table[t][i] = (crc_table[t - 1][i] >> 8) ^ crc_table[0][crc_table[t - 1][i] & 255];
  }
  crc_built = 1;
}

// CRC-32 (ISO-HDLC, as gzip uses), eight bytes a step.
static uint32_t crc32(const uint8_t *p, size_t n) {
  if (!crc_built) build_crc();
  uint32_t c = 0xffffffffu;
  while (n >= 8) {
    uint32_t lo, hi;
    __builtin_memcpy(&lo, p, 4);
    __builtin_memcpy(&hi, p + 4, 4);
    lo ^= c;
    c = crc_table[7][lo & 255] ^ crc_table[6][(lo >> 8) & 255] ^ crc_table[5][(lo >> 16) & 255] ^ crc_table[4][lo >> 24] ^
        crc_table[3][hi & 255] ^ crc_table[2][(hi >> 8) & 255] ^ crc_table[1][(hi >> 16) & 255] ^ crc_table[0][hi >> 24];
    p += 8;
    n -= 8;
  }
  while (n--) c = (c >> 8) ^ crc_table[0][(c ^ *p++) & 255];
  return c ^ 0xffffffffu;
}

// Adler-32 (RFC 1950 8.2); sums are reduced every 5552 bytes, before they can overflow.
static uint32_t adler32(const uint8_t *p, size_t n) {
  uint32_t a = 1, b = 0;
  while (n > 0) {
    size_t k = n < 5552 ? n : 5552;
    n -= k;
    while (k >= 4) {
      a += p[0];
      b += a;
      a += p[1];
      b += a;
      a += p[2];
      b += a;
      a += p[3];
      b += a;
      p += 4;
      k -= 4;
    }
    while (k--) {
      a += *p++;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return (b << 16) | a;
}

static inline uint32_t le32(const uint8_t *p) {
  return p[0] | (p[1] << 8) | (p[2] << 16) | ((uint32_t)p[3] << 24);
}

// --- Wrappers -----------------------------------------------------------------------------
// The length of the gzip member header at src[pos, n), or a negative error.
static int64_t gzip_header(const uint8_t *src, size_t n, size_t pos) {
  size_t p = pos;
  if (n - p < 10) return -INF_ERR_TRUNCATED;
  if (src[p] != 0x1f || src[p + 1] != 0x8b || src[p + 2] != 8) return -INF_ERR_HEADER;
  uint32_t flags = src[p + 3];
  if (flags & 0xe0) return -INF_ERR_HEADER;
  p += 10;
  if (flags & 4) {
    if (n - p < 2) return -INF_ERR_TRUNCATED;
    size_t xlen = src[p] | (src[p + 1] << 8);
    if (n - p - 2 < xlen) return -INF_ERR_TRUNCATED;
    p += 2 + xlen;
  }
  for (uint32_t flag = 8; flag <= 16; flag <<= 1) {  // FNAME, then FCOMMENT: zero-terminated
    if (!(flags & flag)) continue;
    while (p < n && src[p] != 0) p++;
    if (p >= n) return -INF_ERR_TRUNCATED;
    p++;
  }
  if (flags & 2) {
    if (n - p < 2) return -INF_ERR_TRUNCATED;
    if ((crc32(src + pos, p - pos) & 0xffff) != (uint32_t)(src[p] | (src[p + 1] << 8))) return -INF_ERR_HEADER;
    p += 2;
  }
  return (int64_t)(p - pos);
}

static int64_t inflate_gzip(const uint8_t *src, size_t n, uint8_t *dst, size_t cap) {
  size_t pos = 0, op = 0;
  if (n == 0) return -INF_ERR_TRUNCATED;
  for (;;) {
    int64_t header = gzip_header(src, n, pos);
    if (header < 0) return header;
    Input in = {src, n, pos + (size_t)header, 0, 0};
    size_t member_start = op;
    int r = inflate_stream(&in, dst, &op, cap);
    if (r < 0) return r;
    if (n - in.pos < 8) return -INF_ERR_TRUNCATED;
    const uint8_t *trailer = src + in.pos;
    if (crc32(dst + member_start, op - member_start) != le32(trailer)) return -INF_ERR_CHECKSUM;
    if ((uint32_t)(op - member_start) != le32(trailer + 4)) return -INF_ERR_SIZE;
    pos = in.pos + 8;
    size_t z = pos;
    while (z < n && src[z] == 0) z++;
    if (z == n) return (int64_t)op;
    if (z != pos) return -INF_ERR_TRAILING;  // zero bytes, then more: not another member
  }
}

static int64_t inflate_zlib(const uint8_t *src, size_t n, uint8_t *dst, size_t cap) {
  if (n < 2) return -INF_ERR_TRUNCATED;
  uint32_t cmf = src[0], flg = src[1];
  if ((cmf & 15) != 8 || (cmf >> 4) > 7 || ((cmf << 8) | flg) % 31 != 0) return -INF_ERR_HEADER;
  if (flg & 0x20) return -INF_ERR_DICTIONARY;
  Input in = {src, n, 2, 0, 0};
  size_t op = 0;
  int r = inflate_stream(&in, dst, &op, cap);
  if (r < 0) return r;
  if (n - in.pos < 4) return -INF_ERR_TRUNCATED;
  const uint8_t *t = src + in.pos;
  uint32_t stored = ((uint32_t)t[0] << 24) | (t[1] << 16) | (t[2] << 8) | t[3];
  if (adler32(dst, op) != stored) return -INF_ERR_CHECKSUM;
  return (int64_t)op;  // bytes after the Adler-32 are ignored, as node:zlib and Python's zlib do

}

// Inflates src[0, n) (format 0 raw deflate, 1 zlib, 2 gzip) into dst[0, cap), which must be
// followed by 64 bytes the kernel may scribble on: the bytes written, or −INF_ERR_*.
// `cap` must be below 2^31 (the result is an int32).
__attribute__((export_name("inflate"))) int32_t export_inflate(const uint8_t *src, size_t n, uint8_t *dst, size_t cap, uint32_t format) {
  if (cap > 0x7fffffffu) return -INF_ERR_FORMAT;
  if (format == FORMAT_GZIP) return (int32_t)inflate_gzip(src, n, dst, cap);
  if (format == FORMAT_ZLIB) return (int32_t)inflate_zlib(src, n, dst, cap);
  if (format != FORMAT_RAW) return -INF_ERR_FORMAT;
  Input in = {src, n, 0, 0, 0};
  size_t op = 0;
  int r = inflate_stream(&in, dst, &op, cap);
  return r < 0 ? r : (int32_t)op;
}
