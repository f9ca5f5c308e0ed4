// The frames of a zstd input (RFC 8878 §3.1): zstd frames and skippable frames, one after
// another, each zstd frame's header, blocks and optional checksum, decoded into one output
// span. The structure of src/decoder/frame-scan.ts and frame.ts in one pass.
#pragma once
#include "_zstd_dec_common.c"
#include "_zstd_dec_block.c"
#include "_zstd_dec_xxh64.c"

#define ZD_MAGIC 0xFD2FB528u
#define ZD_SKIPPABLE_MASK 0xFFFFFFF0u
#define ZD_SKIPPABLE_MAGIC 0x184D2A50u

// Details of a failure, for the caller's message.
typedef struct {
  u32 frame_offset;     // where the frame (or the bytes) at fault start in the input
  u32 stored_checksum;  // for ZD_E_CHECKSUM
  u32 actual_checksum;  // for ZD_E_CHECKSUM
  u32 decoded;          // for ZD_E_CONTENT_SIZE: what the frame decoded to
} ZdFailure;

static ZdFrameState zd_state;

// Decodes one zstd frame starting at src[start] (its magic already checked) into dst from
// *op. Returns the offset just past the frame, or a negated error code.
static i64 zd_decode_frame(const u8* src, i32 n, i32 start, u8* dst, u32 dst_cap, u32* op, ZdFailure* why) {
  i32 pos = start + 4;
  if (pos >= n) return -ZD_E_HEADER_TRUNCATED;
  u32 descriptor = src[pos++];
  u32 fcs_flag = descriptor >> 6;
  u32 single_segment = (descriptor & 0x20) != 0;
  if ((descriptor & 0x08) != 0) return -ZD_E_RESERVED_BIT;
  u32 has_checksum = (descriptor & 0x04) != 0;
  static const u8 dict_sizes[4] = {0, 1, 2, 4};
  static const u8 fcs_sizes[4] = {0, 2, 4, 8};
  u32 dict_size = dict_sizes[descriptor & 3];
  u32 fcs_size = fcs_flag == 0 ? single_segment : fcs_sizes[fcs_flag];
  if (pos + (i32)(!single_segment + dict_size + fcs_size) > n) return -ZD_E_HEADER_TRUNCATED;
  u64 window = 0;
  if (!single_segment) {
    u32 wd = src[pos++];
    u64 base = 1ull << (10 + (wd >> 3));
    window = base + (base >> 3) * (wd & 7);
  }
  u32 dict_id = 0;
  for (u32 k = 0; k < dict_size; k++) dict_id |= (u32)src[pos++] << (8 * k);
  if (dict_id != 0) return -ZD_E_DICTIONARY;
  u64 content_size = 0;
  u32 has_content_size = fcs_size > 0;
  for (u32 k = 0; k < fcs_size; k++) content_size |= (u64)src[pos++] << (8 * k);
  if (fcs_size == 2) content_size += 256;
  if (single_segment) window = content_size;
  u32 block_max = window < ZD_MAX_BLOCK ? (u32)window : ZD_MAX_BLOCK;

  zd_frame_state_reset(&zd_state);
  u32 frame_start = *op;
  // The output this frame may fill: its declared size, else the rest of the span.
  u32 limit = dst_cap;
  if (has_content_size) {
    if (content_size > dst_cap - frame_start) return -ZD_E_OUTPUT_FULL;
    limit = frame_start + (u32)content_size;
  }
  u32 o = frame_start;
  for (;;) {
    if (n - pos < 3) return -ZD_E_BLOCK_HEADER_TRUNCATED;
    u32 header = zd_load24(src + pos);
    u32 last = header & 1;
    u32 type = (header >> 1) & 3;
    u32 size = header >> 3;
    pos += 3;
    if (type == 3) return -ZD_E_RESERVED_BLOCK_TYPE;
    if (size > block_max) return -ZD_E_BLOCK_TOO_LARGE;
    i32 stored = type == 1 ? 1 : (i32)size;
    if (stored > n - pos) return -ZD_E_BLOCK_TRUNCATED;
    if (type == 2) {
      if (size == 0) return -ZD_E_EMPTY_COMPRESSED_BLOCK;
      // A block holds at most Block_Maximum_Size bytes; past the frame's end it is corrupt,
      // past the span's end (a frame without a declared size) the span is too small.
      u32 block_limit = limit - o > block_max ? o + block_max : limit;
      int err = zd_decode_block(&zd_state, src, n, pos, pos + (i32)size, dst, &o, block_limit, dst_cap, frame_start);
      if (err == ZD_E_PAST_BLOCK_LIMIT && block_limit == limit) err = has_content_size ? ZD_E_PAST_FRAME_SIZE : ZD_E_OUTPUT_FULL;
      if (err != 0) return -err;
    } else {
      if (size > limit - o) return has_content_size ? -ZD_E_PAST_FRAME_SIZE : -ZD_E_OUTPUT_FULL;
      if (type == 0) __builtin_memcpy(dst + o, src + pos, size);
      else __builtin_memset(dst + o, src[pos], size);
      o += size;
    }
    pos += stored;
    if (last) break;
  }
  *op = o;
  if (has_content_size && o - frame_start != content_size) {
    why->decoded = o - frame_start;
    return -ZD_E_CONTENT_SIZE;
  }
  if (has_checksum) {
    if (n - pos < 4) return -ZD_E_CHECKSUM_TRUNCATED;
    u32 stored = zd_load32(src + pos);
    u32 actual = (u32)zd_xxh64(dst + frame_start, o - frame_start);
    pos += 4;
    if (stored != actual) {
      why->stored_checksum = stored;
      why->actual_checksum = actual;
      return -ZD_E_CHECKSUM;
    }
  }
  return pos;
}

// Decodes every frame of src[0..n) into dst[0..dst_cap). Returns the bytes written, or a
// negated error code with details in *why.
static i64 zd_decode_frames(const u8* src, i32 n, u8* dst, u32 dst_cap, ZdFailure* why) {
  why->frame_offset = 0;
  if (n == 0) return -ZD_E_EMPTY_INPUT;
  i32 pos = 0;
  u32 op = 0;
  while (pos < n) {
    why->frame_offset = (u32)pos;
    if (n - pos < 4) return -ZD_E_STRAY_BYTES;
    u32 magic = zd_load32(src + pos);
    if ((magic & ZD_SKIPPABLE_MASK) == ZD_SKIPPABLE_MAGIC) {
      if (n - pos < 8) return -ZD_E_SKIPPABLE_TRUNCATED;
      u32 size = zd_load32(src + pos + 4);
      if (size > (u32)(n - pos - 8)) return -ZD_E_SKIPPABLE_TRUNCATED;
      pos += 8 + (i32)size;
      continue;
    }
    if (magic != ZD_MAGIC) return -ZD_E_BAD_MAGIC;
    i64 end = zd_decode_frame(src, n, pos, dst, dst_cap, &op, why);
    if (end < 0) return end;
    pos = (i32)end;
  }
  return op;
}
