// The zstd encoder kernel: one frame (RFC 8878 §3.1.1) per call, byte for byte what the
// TypeScript encoder (src/encoder/) writes for the same input, level and checksum flag.
// Magic number, frame header with Frame_Content_Size, blocks of at most 128 KiB (RLE for
// one repeated byte, compressed when that saves enough, raw otherwise), optional XXH64.
//
// Memory is the caller's: the input, the output (zstd_encode_bound bytes) and a workspace
// (zstd_encode_workspace bytes) anywhere in the kernel's memory. Nothing survives a call.

#include "_zstdenc_base.c"
#include "_zstdenc_fse.c"
#include "_zstdenc_huffman.c"
#include "_zstdenc_literals.c"
#include "_zstdenc_sequences.c"
#include "_zstdenc_match.c"
#include "_zstd_dec_xxh64.c"

#define MAGIC 0xfd2fb528u
#define BLOCK_RAW 0
#define BLOCK_RLE 1
#define BLOCK_COMPRESSED 2

/** A level outside MIN_LEVEL..MAX_LEVEL, or an input of 2^31 bytes or more. */
#define ERROR_ARGUMENT (-1)

// Room for a compressed attempt: literals (raw, or Huffman tried in place), up to ~11 bytes
// per sequence, table descriptions, and the bit writers' 8-byte stores past the end.
#define BLOCK_SCRATCH (MAX_BLOCK_SIZE + 1024 + (MAX_SEQUENCES + 1) * 11 + 64)

static inline u32 align16(u32 v) { return (v + 15) & ~15u; }

/** The workspace layout for `n` input bytes at `level`. */
typedef struct {
  u32 literals;
  u32 lit_length;
  u32 match_length;
  u32 off_base;
  u32 ll_code;
  u32 ml_code;
  u32 of_code;
  u32 sequence_scratch;
  u32 block;
  u32 head;
  u32 chain;
  u32 total;
} Layout;

static Layout layout(u32 n, const LevelParams *p) {
  Layout l;
  u32 hash_log;
  u32 chain_log;
  table_logs(p, n, &hash_log, &chain_log);
  u32 at = 0;
  l.literals = at;
  at = align16(at + MAX_BLOCK_SIZE + 16);
  l.lit_length = at;
  at = align16(at + MAX_SEQUENCES * 4);
  l.match_length = at;
  at = align16(at + MAX_SEQUENCES * 4);
  l.off_base = at;
  at = align16(at + MAX_SEQUENCES * 4);
  l.ll_code = at;
  at = align16(at + MAX_SEQUENCES);
  l.ml_code = at;
  at = align16(at + MAX_SEQUENCES);
  l.of_code = at;
  at = align16(at + MAX_SEQUENCES);
  l.sequence_scratch = at;
  at = align16(at + sizeof(SequenceScratch));
  l.block = at;
  at = align16(at + BLOCK_SCRATCH);
  l.head = at;
  at = align16(at + (4u << hash_log));
  l.chain = at;
  at = align16(at + (chain_log == 0 ? 0 : 4u << chain_log));
  l.total = at;
  return l;
}

static inline i32 level_ok(i32 level) { return level >= MIN_LEVEL && level <= MAX_LEVEL; }

/** Bytes of workspace zstd_encode needs for `n` input bytes at `level` (0 for a bad level). */
__attribute__((export_name("zstd_encode_workspace"))) u32 zstd_encode_workspace(u32 n, i32 level) {
  if (!level_ok(level)) return 0;
  LevelParams p = level_params(level);
  return layout(n, &p).total;
}

/** The largest frame zstd_encode writes for `n` input bytes: header, 3 bytes per block, raw content, checksum. */
__attribute__((export_name("zstd_encode_bound"))) u32 zstd_encode_bound(u32 n) {
  u32 blocks = n == 0 ? 1 : (n + MAX_BLOCK_SIZE - 1) / MAX_BLOCK_SIZE;
  return 18 + blocks * 3 + n + 4;
}

static void write_block_header(u8 *out, u32 pos, i32 last, u32 type, u32 size) {
  u32 v = (last ? 1u : 0u) | (type << 1) | (size << 3);
  out[pos] = (u8)v;
  out[pos + 1] = (u8)(v >> 8);
  out[pos + 2] = (u8)(v >> 16);
}

/** Magic number and frame header; returns the position after them. */
static u32 write_frame_header(u8 *out, u32 n, i32 single_segment, u32 window_log, i32 checksum) {
  store32(out, MAGIC);
  // Frame_Content_Size field: 1 byte (single segment only), 2 bytes (value - 256), or 4.
  u32 fcs_flag;
  if (single_segment && n < 256) fcs_flag = 0;
  else if (n >= 256 && n < 65536 + 256) fcs_flag = 1;
  else fcs_flag = 2;
  out[4] = (u8)((fcs_flag << 6) | (single_segment ? 1 << 5 : 0) | (checksum ? 1 << 2 : 0));
  u32 pos = 5;
  if (!single_segment) out[pos++] = (u8)((window_log - 10) << 3);
  if (fcs_flag == 0) {
    out[pos++] = (u8)n;
  } else if (fcs_flag == 1) {
    u32 v = n - 256;
    out[pos++] = (u8)v;
    out[pos++] = (u8)(v >> 8);
  } else {
    store32(out + pos, n);
    pos += 4;
  }
  return pos;
}

static i32 is_single_byte(const u8 *src, u32 start, u32 end) {
  u8 b = src[start];
  u32 i = start + 1;
  u64 pattern = 0x0101010101010101ull * b;
  for (; i + 8 <= end; i += 8) {
    if (zd_load64(src + i) != pattern) return 0;
  }
  for (; i < end; i++) {
    if (src[i] != b) return 0;
  }
  return 1;
}

/**
 * Compresses src[0..n) into one frame at dst (room: zstd_encode_bound(n)) using `work`
 * (zstd_encode_workspace(n, level) bytes). Returns the frame's size, or ERROR_ARGUMENT.
 */
__attribute__((export_name("zstd_encode"))) i32 zstd_encode(const u8 *src, u32 n, u8 *dst, i32 level, i32 checksum,
                                                              u8 *work) {
  if (!level_ok(level) || n > 0x7fffffffu) return ERROR_ARGUMENT;
  LevelParams params = level_params(level);
  u64 window_limit = 1ull << params.window_log;
  // A frame whose content fits the window is single segment: no window descriptor.
  i32 single_segment = n <= window_limit;
  u32 window_size = single_segment ? (n > 1 ? n : 1) : (u32)window_limit;
  u32 pos = write_frame_header(dst, n, single_segment, params.window_log, checksum);

  if (n == 0) {
    // One empty raw block, marked last.
    write_block_header(dst, pos, 1, BLOCK_RAW, 0);
    pos += 3;
  } else {
    Layout l = layout(n, &params);
    SequenceStore store;
    store.literals = work + l.literals;
    store.lit_length = (u32 *)(work + l.lit_length);
    store.match_length = (u32 *)(work + l.match_length);
    store.off_base = (u32 *)(work + l.off_base);
    SequenceScratch *sequences = (SequenceScratch *)(work + l.sequence_scratch);
    sequences->ll_code = work + l.ll_code;
    sequences->ml_code = work + l.ml_code;
    sequences->of_code = work + l.of_code;
    u8 *scratch = work + l.block;
    PredefinedTables predefined;
    build_predefined_tables(&predefined);

    MatchFinder finder;
    mf_init(&finder, src, n, &params, window_size, (i32 *)(work + l.head), (i32 *)(work + l.chain));

    for (u32 start = 0; start < n; start += MAX_BLOCK_SIZE) {
      u32 end = n - start > MAX_BLOCK_SIZE ? start + MAX_BLOCK_SIZE : n;
      u32 size = end - start;
      i32 last = end == n;
      if (is_single_byte(src, start, end)) {
        write_block_header(dst, pos, last, BLOCK_RLE, size);
        dst[pos + 3] = src[start];
        pos += 4;
        continue;
      }
      // Raw blocks leave the decoder's repeat offsets alone: restore ours if this block is not stored compressed.
      u32 rep0 = finder.rep0;
      u32 rep1 = finder.rep1;
      u32 rep2 = finder.rep2;
      store.nb_literals = 0;
      store.nb_seq = 0;
      mf_find_sequences(&finder, (i32)start, (i32)end, &store);
      u32 compressed_size =
          write_literals(store.literals, store.nb_literals, scratch, 0, params.huffman_literals);
      compressed_size = write_sequences(&store, sequences, &predefined, scratch, compressed_size);
      // Keep the compressed form only when it saves a little more than nothing (raw blocks decode faster).
      if (compressed_size < size - ((size >> 6) + 2)) {
        write_block_header(dst, pos, last, BLOCK_COMPRESSED, compressed_size);
        __builtin_memcpy(dst + pos + 3, scratch, compressed_size);
        pos += 3 + compressed_size;
      } else {
        finder.rep0 = rep0;
        finder.rep1 = rep1;
        finder.rep2 = rep2;
        write_block_header(dst, pos, last, BLOCK_RAW, size);
        __builtin_memcpy(dst + pos + 3, src + start, size);
        pos += 3 + size;
      }
    }
  }

  if (checksum) {
    store32(dst + pos, (u32)zd_xxh64(src, n));
    pos += 4;
  }
  return (i32)pos;
}
