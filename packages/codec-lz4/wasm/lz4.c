// The codec-lz4 kernel (src/lz4-kernel.ts calls it): LZ4 block decode and encode on
// buffers the caller placed in this module's memory.
#include "_lz4_decode.c"
#include "_lz4_encode.c"

// Decodes src[0, src_len) into dst[0, dst_len): the bytes written, or −LZ4_ERR_*.
__attribute__((export_name("lz4_decode"))) int32_t export_lz4_decode(const uint8_t *src, size_t src_len, uint8_t *dst,
                                                                     size_t dst_len) {
  return lz4_decode(src, src_len, dst, dst_len);
}

// Encodes src[0, n) into dst[0, cap) with acceleration `accel` (≥ 1): the bytes written,
// or 0 when the block does not fit.
__attribute__((export_name("lz4_encode"))) size_t export_lz4_encode(const uint8_t *src, size_t n, uint8_t *dst, size_t cap,
                                                                    uint32_t accel) {
  return lz4_encode(src, n, dst, cap, accel);
}
