// One Compressed_Block (RFC 8878 §3.1.1.3): the literals section (raw, RLE, Huffman with 1 or
// 4 streams, treeless), the sequences section header and its FSE tables (predefined, RLE,
// FSE-compressed, repeat), then sequence execution. The structure of src/decoder/block.ts.
#pragma once
#include "_zstd_dec_common.c"
#include "_zstd_dec_fse.c"
#include "_zstd_dec_huffman.c"
#include "_zstd_dec_sequences.c"

static const u32 zd_ll_base[36] = {0,  1,  2,  3,  4,  5,  6,   7,   8,   9,   10,   11,   12,   13,   14,    15,    16,   18,
                                   20, 22, 24, 28, 32, 40, 48, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536};
static const u8 zd_ll_bits[36] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  0,  1,  1,
                                  1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
static const u32 zd_ml_base[53] = {3,  4,  5,  6,  7,  8,  9,  10, 11, 12,  13,  14,  15,  16,   17,   18,   19,   20,
                                   21, 22, 23, 24, 25, 26, 27, 28, 29, 30,  31,  32,  33,  34,   35,   37,   39,   41,
                                   43, 47, 51, 59, 67, 83, 99, 131, 259, 515, 1027, 2051, 4099, 8195, 16387, 32771, 65539};
static const u8 zd_ml_bits[53] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                  0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
// Offset codes: Offset_Value = (1 << code) + code extra bits.
static const u32 zd_of_base[32] = {1u << 0,  1u << 1,  1u << 2,  1u << 3,  1u << 4,  1u << 5,  1u << 6,  1u << 7,
                                   1u << 8,  1u << 9,  1u << 10, 1u << 11, 1u << 12, 1u << 13, 1u << 14, 1u << 15,
                                   1u << 16, 1u << 17, 1u << 18, 1u << 19, 1u << 20, 1u << 21, 1u << 22, 1u << 23,
                                   1u << 24, 1u << 25, 1u << 26, 1u << 27, 1u << 28, 1u << 29, 1u << 30, 1u << 31};
static const u8 zd_of_bits[32] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                                  16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};

// Predefined_Mode distributions (RFC 8878 §3.1.1.3.2.2).
static const short zd_ll_default[36] = {4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 2,  2,
                                        2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1, -1, -1, -1, -1};
static const short zd_ml_default[53] = {1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,
                                        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1};
static const short zd_of_default[29] = {1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1,
                                        1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1};

enum { ZD_LITERAL_LENGTHS = 0, ZD_OFFSETS = 1, ZD_MATCH_LENGTHS = 2 };

// What a frame's blocks pass on to the next block (RFC 8878 §3.1.1.3.1): the repeat offsets,
// the last Huffman table (for treeless literals) and the last FSE table of each symbol type
// (for Repeat_Mode). Reset at every frame.
typedef struct {
  ZdRepeats reps;
  ZdHuffman huffman;
  ZdFseEntry tables[3][512];
  u32 logs[3];
  u32 have_table[3];
  // Decoded literals of the current block, with room for wild copies past their end.
  u8 literals[ZD_MAX_BLOCK + ZD_WILD];
} ZdFrameState;

static void zd_frame_state_reset(ZdFrameState* st) {
  st->reps.rep[0] = 1;
  st->reps.rep[1] = 4;
  st->reps.rep[2] = 8;
  st->huffman.max_bits = 0;
  st->have_table[0] = st->have_table[1] = st->have_table[2] = 0;
}

// Sets the table of one symbol type for this block according to its compression mode, reading
// its description (if any) at src[sp..end). Returns the offset past it or a negated error code.
static i32 zd_select_table(ZdFrameState* st, u32 kind, u32 mode, const u8* src, i32 sp, i32 end) {
  static const u32 max_symbols[3] = {35, 31, 52};
  static const u32 max_logs[3] = {9, 8, 9};
  const u32* base = kind == ZD_LITERAL_LENGTHS ? zd_ll_base : kind == ZD_OFFSETS ? zd_of_base : zd_ml_base;
  const u8* bits = kind == ZD_LITERAL_LENGTHS ? zd_ll_bits : kind == ZD_OFFSETS ? zd_of_bits : zd_ml_bits;
  ZdFseEntry* table = st->tables[kind];
  ZdDistribution dist;
  if (mode == 0) {
    // Predefined_Mode.
    const short* norm = kind == ZD_LITERAL_LENGTHS ? zd_ll_default : kind == ZD_OFFSETS ? zd_of_default : zd_ml_default;
    dist.count = kind == ZD_LITERAL_LENGTHS ? 36 : kind == ZD_OFFSETS ? 29 : 53;
    dist.log = kind == ZD_OFFSETS ? 5 : 6;
    for (u32 s = 0; s < dist.count; s++) dist.norm[s] = norm[s];
    int err = zd_build_fse_table(&dist, base, bits, table);
    if (err != 0) return -err;
    st->logs[kind] = dist.log;
  } else if (mode == 1) {
    // RLE_Mode.
    if (sp >= end) return -ZD_E_RLE_TABLE_TRUNCATED;
    u32 symbol = src[sp++];
    if (symbol > max_symbols[kind]) return -ZD_E_RLE_CODE_RANGE;
    zd_build_rle_table(symbol, base, bits, table);
    st->logs[kind] = 0;
  } else if (mode == 2) {
    // FSE_Compressed_Mode.
    sp = zd_read_distribution(src, sp, end, max_logs[kind], max_symbols[kind], &dist);
    if (sp < 0) return sp;
    int err = zd_build_fse_table(&dist, base, bits, table);
    if (err != 0) return -err;
    st->logs[kind] = dist.log;
  } else {
    // Repeat_Mode: the table of the previous block with sequences.
    if (!st->have_table[kind]) return -ZD_E_REPEAT_WITHOUT_TABLE;
    return sp;
  }
  st->have_table[kind] = 1;
  return sp;
}

// Decodes the (not raw-in-place) literals of the section at `pos` into dst[0..lit_size).
static int zd_decode_literals(ZdFrameState* st, const u8* src, i32 pos, u32 lit_type, u32 size_format, i32 header_size,
                              u32 lit_size, i32 section_end, u8* dst) {
  i32 data = pos + header_size;
  if (lit_type == 0) {
    __builtin_memcpy(dst, src + data, lit_size);
    return 0;
  }
  if (lit_type == 1) {
    __builtin_memset(dst, src[data], lit_size);
    return 0;
  }
  i32 streams = data;
  if (lit_type == 2) {
    streams = zd_read_huffman(src, data, section_end, &st->huffman);
    if (streams < 0) return -streams;
  } else if (st->huffman.max_bits == 0) {
    return ZD_E_TREELESS_WITHOUT_TABLE;
  }
  if (size_format == 0) return zd_huf_decode1(src, streams, section_end, &st->huffman, dst, lit_size);
  return zd_huf_decode4(src, streams, section_end, &st->huffman, dst, lit_size);
}

// Decodes the compressed block src[pos..end) into dst[*op..limit) (wild copies may write up to
// dst_cap) and advances *op. window_start is where the frame's output starts (the furthest a
// match may reach back). Returns 0 or an error code.
static int zd_decode_block(ZdFrameState* st, const u8* src, i32 src_len, i32 pos, i32 end, u8* dst, u32* op, u32 limit,
                           u32 dst_cap, u32 window_start) {
  // Literals_Section_Header.
  u32 b0 = src[pos];
  u32 lit_type = b0 & 3;
  u32 size_format = (b0 >> 2) & 3;
  u32 lit_size;
  i32 header_size;
  i32 section_end;
  if (lit_type <= 1) {
    header_size = (size_format & 1) == 0 ? 1 : size_format == 1 ? 2 : 3;
    if (pos + header_size > end) return ZD_E_LITERALS_OVERRUN;
    if (header_size == 1) lit_size = b0 >> 3;
    else if (header_size == 2) lit_size = (b0 >> 4) | ((u32)src[pos + 1] << 4);
    else lit_size = (b0 >> 4) | ((u32)src[pos + 1] << 4) | ((u32)src[pos + 2] << 12);
    section_end = pos + header_size + (lit_type == 0 ? (i32)lit_size : 1);
  } else {
    header_size = size_format < 2 ? 3 : size_format == 2 ? 4 : 5;
    if (pos + header_size > end) return ZD_E_LITERALS_OVERRUN;
    u32 compressed_size;
    if (size_format < 2) {
      u32 h = zd_load24(src + pos);
      lit_size = (h >> 4) & 0x3ff;
      compressed_size = (h >> 14) & 0x3ff;
    } else if (size_format == 2) {
      u32 h = zd_load32(src + pos);
      lit_size = (h >> 4) & 0x3fff;
      compressed_size = (h >> 18) & 0x3fff;
    } else {
      u32 h = zd_load32(src + pos);
      lit_size = (h >> 4) & 0x3ffff;
      compressed_size = (h >> 22) | ((u32)src[pos + 4] << 10);
    }
    if (compressed_size == 0) return ZD_E_EMPTY_HUFFMAN_LITERALS;
    section_end = pos + header_size + (i32)compressed_size;
  }
  if (section_end > end) return ZD_E_LITERALS_OVERRUN;
  if (lit_size > ZD_MAX_BLOCK) return ZD_E_LITERALS_TOO_MANY;

  // Sequences_Section_Header: Number_of_Sequences.
  i32 sp = section_end;
  if (sp >= end) return ZD_E_NO_SEQUENCES_SECTION;
  u32 n_seq = src[sp++];
  if (n_seq >= 128) {
    if (n_seq == 255) {
      if (sp + 2 > end) return ZD_E_SEQ_HEADER_TRUNCATED;
      n_seq = src[sp] + ((u32)src[sp + 1] << 8) + 0x7f00;
      sp += 2;
    } else {
      if (sp + 1 > end) return ZD_E_SEQ_HEADER_TRUNCATED;
      n_seq = ((n_seq - 128) << 8) + src[sp];
      sp++;
    }
  }

  if (n_seq == 0) {
    // The block is its literals: decode them straight into the output.
    if (sp != end) return ZD_E_BYTES_AFTER_SEQUENCES;
    if (lit_size > limit - *op) return ZD_E_PAST_BLOCK_LIMIT;
    int err = zd_decode_literals(st, src, pos, lit_type, size_format, header_size, lit_size, section_end, dst + *op);
    if (err != 0) return err;
    *op += lit_size;
    return 0;
  }

  // Literals are copied from the input (raw) or from the literal buffer during execution.
  const u8* lit;
  u32 lit_wild_end;
  if (lit_type == 0) {
    lit = src + pos + header_size;
    u32 readable = (u32)(src_len - (pos + header_size));
    lit_wild_end = readable >= ZD_WILD ? readable - ZD_WILD : 0;
  } else {
    lit = st->literals;
    lit_wild_end = ZD_MAX_BLOCK;
    int err = zd_decode_literals(st, src, pos, lit_type, size_format, header_size, lit_size, section_end, st->literals);
    if (err != 0) return err;
  }

  // Symbol compression modes, then the tables in the order LL, OF, ML.
  if (sp >= end) return ZD_E_SEQ_HEADER_TRUNCATED;
  u32 modes = src[sp++];
  if ((modes & 3) != 0) return ZD_E_RESERVED_MODES;
  sp = zd_select_table(st, ZD_LITERAL_LENGTHS, modes >> 6, src, sp, end);
  if (sp >= 0) sp = zd_select_table(st, ZD_OFFSETS, (modes >> 4) & 3, src, sp, end);
  if (sp >= 0) sp = zd_select_table(st, ZD_MATCH_LENGTHS, (modes >> 2) & 3, src, sp, end);
  if (sp < 0) return -sp;
  ZdSeqResult r;
  int err = zd_execute_sequences(src, sp, end, n_seq, st->tables[ZD_LITERAL_LENGTHS], st->logs[ZD_LITERAL_LENGTHS],
                                 st->tables[ZD_OFFSETS], st->logs[ZD_OFFSETS], st->tables[ZD_MATCH_LENGTHS],
                                 st->logs[ZD_MATCH_LENGTHS], lit, 0, lit_size, lit_wild_end, dst, *op, limit, dst_cap,
                                 window_start, &st->reps, &r);
  if (err != 0) return err;
  // Literals left after the last sequence end the block.
  u32 rest = lit_size - r.lit_pos;
  if (rest > limit - r.op) return ZD_E_PAST_BLOCK_LIMIT;
  __builtin_memcpy(dst + r.op, lit + r.lit_pos, rest);
  *op = r.op + rest;
  return 0;
}
