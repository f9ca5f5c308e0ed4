// The zstd decoder kernel (RFC 8878): every frame of an input placed in this module's memory,
// decoded into an output span there (src/decoder/kernel.ts places both and copies the result
// out). The pieces, in the order they build on each other:
//   _zstd_dec_common.c     types, loads, error codes, the backward bit reader
//   _zstd_dec_fse.c        FSE table descriptions and decoding tables
//   _zstd_dec_huffman.c    Huffman tree descriptions, 1- and 4-stream literals
//   _zstd_dec_sequences.c  sequence decoding fused with execution (16-byte wild copies)
//   _zstd_dec_block.c      one compressed block: literals section, sequence tables
//   _zstd_dec_xxh64.c      the content checksum
//   _zstd_dec_frame.c      frames, skippable frames, block headers, checksums
#include "_zstd_dec_frame.c"

// Decodes src[0..src_len) into dst[0..dst_cap) (dst_cap < 2^31). Returns the decoded size, or a negated error
// code (ZD_E_*) with details written to failure[0..4): the failing frame's offset, the stored
// and computed checksums, the size a frame decoded to.
__attribute__((export_name("zstd_decode"))) i32 zstd_decode(const u8* src, u32 src_len, u8* dst, u32 dst_cap,
                                                             u32* failure) {
  ZdFailure why = {0, 0, 0, 0};
  i64 result = zd_decode_frames(src, (i32)src_len, dst, dst_cap, &why);
  failure[0] = why.frame_offset;
  failure[1] = why.stored_checksum;
  failure[2] = why.actual_checksum;
  failure[3] = why.decoded;
  return (i32)result;
}
