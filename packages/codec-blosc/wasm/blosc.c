// The codec-blosc kernel (src/blosc-kernel.ts calls it): the shuffle filters on blocks and
// whole chunks, and whole-chunk decode and encode of LZ4 chunks (c-blosc 1.x format, the
// rules of src/decompress.ts and src/compress.ts), so such a chunk costs one copy in and
// one copy out. Other compressors' streams are decoded and encoded in TypeScript around
// unshuffle_chunk / shuffle_chunk; a compressor gets a kernel piece by adding a case to
// decode_stream (zstd's decoder is the next one).
#include "_shuffle.c"
#include "_bitshuffle.c"
#include "../../codec-lz4/wasm/_lz4_decode.c"
#include "../../codec-lz4/wasm/_lz4_encode.c"

#define HEADER_SIZE 16
#define FLAG_SHUFFLE 0x01
#define FLAG_BITSHUFFLE 0x04
#define FLAG_DONT_SPLIT 0x10
#define FORMAT_LZ4 1
#define MAX_SPLITS 16
#define MIN_BUFFERSIZE 128

// Errors besides the LZ4 ones (1–8). The TypeScript side checks the header and every block
// offset and stream size before calling, so BLOSC_ERR_LAYOUT only guards this kernel.
#define BLOSC_ERR_LAYOUT 100
#define BLOSC_ERR_STREAM_SIZE 101 // a stream decoded to stream_got bytes, not stream_want
#define BLOSC_ERR_FORMAT 102      // a compressor this kernel does not decode

// Filter modes, as src/compress.ts numbers them.
#define MODE_NONE 0
#define MODE_BYTE 1
#define MODE_BIT 2

// What BLOSC_ERR_STREAM_SIZE reports; read by the exports below right after the failing call.
static int32_t stream_got, stream_want;

static inline void write_u32(uint8_t *p, uint32_t v) { __builtin_memcpy(p, &v, 4); }

// The filter a block of `bsize` bytes gets: byte shuffle for typesize > 1, bit shuffle only
// when c-blosc 1.x applies it (a multiple of 8 elements), else none.
static int block_mode(int mode, size_t typesize, size_t bsize) {
  if (mode == MODE_BYTE) return typesize > 1 ? MODE_BYTE : MODE_NONE;
  if (mode == MODE_BIT) return bitshuffle_applies(bsize, typesize) ? MODE_BIT : MODE_NONE;
  return MODE_NONE;
}

// The filter a chunk's flags name (a byte shuffle of 1-byte elements leaves room for the bit flag).
static int mode_of_flags(uint32_t flags, size_t typesize) {
  if ((flags & FLAG_SHUFFLE) && typesize > 1) return MODE_BYTE;
  if (flags & FLAG_BITSHUFFLE) return MODE_BIT;
  return MODE_NONE;
}

// Applies a block's filter (`forward`: shuffle, else unshuffle) from src to dst.
static void filter_block(int mode, int forward, const uint8_t *src, uint8_t *dst, size_t bsize, size_t typesize) {
  int filter = block_mode(mode, typesize, bsize);
  if (filter == MODE_BYTE) shuffle_block(src, dst, bsize, typesize, forward);
  else if (filter == MODE_BIT) bitshuffle_block(src, dst, bsize, typesize, forward);
  else __builtin_memcpy(dst, src, bsize);
}

// Filters every block of an nbytes-byte chunk (blocks of min(blocksize, nbytes) bytes).
static void filter_chunk(int mode, int forward, const uint8_t *src, uint8_t *dst, size_t nbytes, size_t blocksize,
                         size_t typesize) {
  size_t block = blocksize < nbytes ? blocksize : nbytes;
  for (size_t start = 0; start < nbytes; start += block) {
    size_t bsize = nbytes - start < block ? nbytes - start : block;
    filter_block(mode, forward, src + start, dst + start, bsize, typesize);
  }
}

// Decodes one stream of `len` bytes into exactly `size` bytes at dst: 0, or −error.
static int32_t decode_stream(uint32_t format, const uint8_t *src, size_t len, uint8_t *dst, size_t size) {
  int32_t written;
  switch (format) {
    case FORMAT_LZ4:
      written = lz4_decode(src, len, dst, size);
      break;
    default:
      return -BLOSC_ERR_FORMAT;
  }
  if (written < 0) return written;
  if ((size_t)written != size) {
    stream_got = written;
    stream_want = (int32_t)size;
    return -BLOSC_ERR_STREAM_SIZE;
  }
  return 0;
}

// The number of streams c-blosc's decoder reads for a block.
static size_t splits_of(uint32_t flags, size_t typesize, size_t bsize, int leftover) {
  int split = !(flags & FLAG_DONT_SPLIT) && !leftover && typesize <= MAX_SPLITS && bsize / typesize >= MIN_BUFFERSIZE;
  return split ? typesize : 1;
}

// Decodes a whole chunk (cbytes bytes, header included; not memcpyed) into out (its nbytes
// bytes), using tmp (one block) for blocks that are unshuffled. Returns 0, or −error.
__attribute__((export_name("decode_chunk"))) int32_t decode_chunk(const uint8_t *chunk, size_t cbytes, uint8_t *out,
                                                                  uint8_t *tmp) {
  if (cbytes < HEADER_SIZE) return -BLOSC_ERR_LAYOUT;
  uint32_t flags = chunk[2];
  size_t typesize = chunk[3];
  size_t nbytes = read32(chunk + 4);
  size_t blocksize = read32(chunk + 8);
  if (nbytes == 0) return 0;
  if (typesize == 0 || blocksize == 0) return -BLOSC_ERR_LAYOUT;
  int mode = mode_of_flags(flags, typesize);
  size_t block = blocksize < nbytes ? blocksize : nbytes;
  size_t nblocks = (nbytes + block - 1) / block;
  size_t leftover = nbytes % block;
  if (nblocks > (cbytes - HEADER_SIZE) / 4) return -BLOSC_ERR_LAYOUT;
  for (size_t j = 0; j < nblocks; j++) {
    int is_leftover = j == nblocks - 1 && leftover > 0;
    size_t bsize = is_leftover ? leftover : block;
    uint8_t *dst = out + j * block;
    int filtered = block_mode(mode, typesize, bsize) != MODE_NONE;
    uint8_t *target = filtered ? tmp : dst;
    size_t nsplits = splits_of(flags, typesize, bsize, is_leftover);
    if (bsize % nsplits != 0) return -BLOSC_ERR_LAYOUT;
    size_t neblock = bsize / nsplits;
    size_t sp = read32(chunk + HEADER_SIZE + 4 * j);
    for (size_t s = 0; s < nsplits; s++) {
      if (sp < HEADER_SIZE || sp > cbytes - 4) return -BLOSC_ERR_LAYOUT;
      size_t csize = read32(chunk + sp);
      sp += 4;
      if (csize > cbytes - sp) return -BLOSC_ERR_LAYOUT;
      if (csize == neblock) {
        __builtin_memcpy(target + s * neblock, chunk + sp, neblock);
      } else {
        int32_t rc = decode_stream(flags >> 5, chunk + sp, csize, target + s * neblock, neblock);
        if (rc != 0) return rc;
      }
      sp += csize;
    }
    if (filtered) filter_block(mode, 0, tmp, dst, bsize, typesize);
  }
  return 0;
}

// The decoded and the expected size of the stream that failed with BLOSC_ERR_STREAM_SIZE.
__attribute__((export_name("stream_got"))) int32_t export_stream_got(void) { return stream_got; }
__attribute__((export_name("stream_want"))) int32_t export_stream_want(void) { return stream_want; }

// Encodes nbytes bytes at src as the blocks of an LZ4 chunk after the 16 header bytes of
// out (which holds nbytes + 16 bytes; the caller writes the header), using tmp (one block)
// for shuffled blocks: the rules of compressBlocks in src/compress.ts. Returns the chunk's
// size, or 0 when it does not fit in nbytes + 16 bytes (the chunk is then stored as is).
__attribute__((export_name("encode_lz4_chunk"))) size_t encode_lz4_chunk(const uint8_t *src, size_t nbytes, uint8_t *out,
                                                                         uint8_t *tmp, size_t typesize, size_t blocksize,
                                                                         int mode, int dont_split, uint32_t accel) {
  size_t maxbytes = nbytes + HEADER_SIZE;
  size_t nblocks = (nbytes + blocksize - 1) / blocksize;
  size_t leftover = nbytes % blocksize;
  size_t ntbytes = HEADER_SIZE + 4 * nblocks;
  if (ntbytes > maxbytes) return 0;
  for (size_t j = 0; j < nblocks; j++) {
    write_u32(out + HEADER_SIZE + 4 * j, (uint32_t)ntbytes);
    int is_leftover = j == nblocks - 1 && leftover > 0;
    size_t bsize = is_leftover ? leftover : blocksize;
    const uint8_t *block = src + j * blocksize;
    if (block_mode(mode, typesize, bsize) != MODE_NONE) {
      filter_block(mode, 1, block, tmp, bsize, typesize);
      block = tmp;
    }
    size_t nsplits = !dont_split && !is_leftover ? typesize : 1;
    size_t neblock = bsize / nsplits;
    for (size_t s = 0; s < nsplits; s++) {
      size_t size_at = ntbytes;
      ntbytes += 4;
      // A stream must come out smaller than its input, or it is stored raw.
      int64_t room = (int64_t)neblock - 1;
      if ((int64_t)maxbytes - (int64_t)ntbytes < room) room = (int64_t)maxbytes - (int64_t)ntbytes;
      size_t csize = room > 0 ? lz4_encode(block + s * neblock, neblock, out + ntbytes, (size_t)room, accel) : 0;
      if (csize == 0) {
        if (ntbytes + neblock > maxbytes) return 0;
        __builtin_memcpy(out + ntbytes, block + s * neblock, neblock);
        csize = neblock;
      }
      write_u32(out + size_at, (uint32_t)csize);
      ntbytes += csize;
    }
  }
  return ntbytes;
}

// Shuffles (mode 1 byte, 2 bit) every block of a chunk of nbytes bytes from src to dst.
__attribute__((export_name("shuffle_chunk"))) void shuffle_chunk(const uint8_t *src, uint8_t *dst, size_t nbytes,
                                                                 size_t blocksize, size_t typesize, int mode) {
  filter_chunk(mode, 1, src, dst, nbytes, blocksize, typesize);
}

// Reverses shuffle_chunk for a chunk whose header has these flags (decode_chunk's rules).
__attribute__((export_name("unshuffle_chunk"))) void unshuffle_chunk(const uint8_t *src, uint8_t *dst, size_t nbytes,
                                                                     size_t blocksize, size_t typesize, uint32_t flags) {
  filter_chunk(mode_of_flags(flags, typesize), 0, src, dst, nbytes, blocksize, typesize);
}
