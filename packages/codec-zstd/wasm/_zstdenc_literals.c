// The Literals_Section of a compressed block (RFC 8878 §3.1.1.3.1): raw, RLE, or Huffman
// with one stream (few literals) or four plus a jump table, Huffman only when it beats the
// raw bytes. A port of src/encoder/literals.ts.

// Below this many literals a Huffman description rarely pays for itself.
#define MIN_HUFFMAN_LITERALS 32
// Below this many literals a single stream is used (the jump table costs 6 bytes).
#define SINGLE_STREAM_LIMIT 256

/**
 * The histograms of the four segments of lits[0..n) that four Huffman streams would code
 * (segment = ceil(n / 4)), and their sum in `counts`. Four tables also keep runs of one byte
 * from waiting on the previous increment of the same counter.
 */
STAGE void count_segments(const u8 *lits, u32 n, u32 (*segments)[256], u32 *counts) {
  u32 segment = (n + 3) >> 2;
  u32 start[4];
  u32 length[4];
  for (u32 k = 0; k < 4; k++) {
    start[k] = k * segment < n ? k * segment : n;
    length[k] = ((k + 1) * segment < n ? (k + 1) * segment : n) - start[k];
  }
  __builtin_memset(segments, 0, 4 * 256 * sizeof(u32));
  const u8 *p0 = lits + start[0];
  const u8 *p1 = lits + start[1];
  const u8 *p2 = lits + start[2];
  const u8 *p3 = lits + start[3];
  // Segments are full but for the last ones: the fourth is the shortest.
  u32 common = length[3];
  for (u32 i = 0; i < common; i++) {
    segments[0][p0[i]]++;
    segments[1][p1[i]]++;
    segments[2][p2[i]]++;
    segments[3][p3[i]]++;
  }
  for (u32 k = 0; k < 3; k++) {
    const u8 *p = lits + start[k];
    for (u32 i = common; i < length[k]; i++) segments[k][p[i]]++;
  }
  for (u32 s = 0; s < 256; s++) counts[s] = segments[0][s] + segments[1][s] + segments[2][s] + segments[3][s];
}

/** Raw (type 0) and RLE (type 1) headers: 1, 2 or 3 bytes depending on the size. */
static u32 write_raw_header(u32 type, u32 n, u8 *out, u32 pos) {
  if (n < 32) {
    out[pos] = (u8)(type | (n << 3));
    return pos + 1;
  }
  if (n < 4096) {
    u32 v = type | (1 << 2) | (n << 4);
    out[pos] = (u8)v;
    out[pos + 1] = (u8)(v >> 8);
    return pos + 2;
  }
  u32 v = type | (3 << 2) | (n << 4);
  out[pos] = (u8)v;
  out[pos + 1] = (u8)(v >> 8);
  out[pos + 2] = (u8)(v >> 16);
  return pos + 3;
}

static u32 write_raw_literals(const u8 *lits, u32 n, u8 *out, u32 pos) {
  pos = write_raw_header(0, n, out, pos);
  __builtin_memcpy(out + pos, lits, n);
  return pos + n;
}

/**
 * Writes the literals section for `lits[0..n)` at `out[pos]`, the smallest of raw, RLE and
 * Huffman; returns the end position. `out` needs room for the raw form plus 256 bytes.
 */
STAGE u32 write_literals(const u8 *lits, u32 n, u8 *out, u32 pos, i32 allow_huffman) {
  u32 segments[4][256];
  u32 counts[256];
  HuffmanTable table;
  if (n == 0) {
    out[pos] = 0;
    return pos + 1;
  }
  count_segments(lits, n, segments, counts);
  u32 distinct = 0;
  for (u32 s = 0; s < 256; s++) distinct += counts[s] != 0;
  if (distinct == 1) {
    pos = write_raw_header(1, n, out, pos);
    out[pos] = lits[0];
    return pos + 1;
  }
  u32 raw_size = (n < 32 ? 1 : n < 4096 ? 2 : 3) + n;
  if (!allow_huffman || n < MIN_HUFFMAN_LITERALS) return write_raw_literals(lits, n, out, pos);

  build_huffman_table(counts, &table);
  i32 single = n < SINGLE_STREAM_LIMIT;
  // Estimate first: the payload size is exact, the tree description at most 129 bytes.
  u32 payload = (huffman_payload_bits(counts, &table) + 7) >> 3;
  if (payload + (single ? 3 : 12) >= raw_size) return write_raw_literals(lits, n, out, pos);

  // The body goes after room for the largest header, then slides into place.
  u32 body_start = pos + 5;
  i32 end = write_tree_description(&table, out, body_start);
  if (end < 0) return write_raw_literals(lits, n, out, pos);
  u32 p = (u32)end;
  if (single) {
    p = write_huffman_stream(lits, 0, n, &table, out, p);
  } else {
    // Each stream's size from its segment's histogram: its bits plus the end marker, in bytes.
    u32 sizes[4];
    for (u32 k = 0; k < 4; k++) {
      sizes[k] = (huffman_payload_bits(segments[k], &table) + 1 + 7) >> 3;
      if (k < 3 && sizes[k] > 0xffff) return write_raw_literals(lits, n, out, pos);
    }
    for (u32 k = 0; k < 3; k++) {
      out[p + 2 * k] = (u8)sizes[k];
      out[p + 2 * k + 1] = (u8)(sizes[k] >> 8);
    }
    p += 6;
    write_huffman_streams4(lits, n, sizes, &table, out, p);
    p += sizes[0] + sizes[1] + sizes[2] + sizes[3];
  }
  u32 compressed = p - body_start;
  u32 header_size;
  u32 size_format;
  u32 largest = n > compressed ? n : compressed;
  if (single) {
    if (largest > 1023) return write_raw_literals(lits, n, out, pos);
    header_size = 3;
    size_format = 0;
  } else if (largest <= 1023) {
    header_size = 3;
    size_format = 1;
  } else if (largest <= 16383) {
    header_size = 4;
    size_format = 2;
  } else {
    header_size = 5;
    size_format = 3;
  }
  if (header_size + compressed >= raw_size) return write_raw_literals(lits, n, out, pos);
  // Literals_Block_Type 2 (compressed, with tree), Size_Format, Regenerated_Size, Compressed_Size.
  u32 size_bits = header_size == 3 ? 10 : header_size == 4 ? 14 : 18;
  u64 v = 2 + size_format * 4 + (u64)n * 16 + ((u64)compressed << (4 + size_bits));
  for (u32 k = 0; k < header_size; k++) {
    out[pos + k] = (u8)v;
    v >>= 8;
  }
  __builtin_memmove(out + pos + header_size, out + body_start, compressed);
  return pos + header_size + compressed;
}
