// The Literals_Section of a compressed block (RFC 8878 §3.1.1.3.1): raw, RLE, or Huffman
// with one stream (few literals) or four plus a jump table, Huffman only when it beats the
// raw bytes. A port of src/encoder/literals.ts.

// Below this many literals a Huffman description rarely pays for itself.
#define MIN_HUFFMAN_LITERALS 32
// Below this many literals a single stream is used (the jump table costs 6 bytes).
#define SINGLE_STREAM_LIMIT 256

/** The histogram of `lits[0..n)` into `counts`, four tables so runs of a byte don't serialise. */
static void count_bytes(const u8 *lits, u32 n, u32 *counts) {
  u32 c1[256];
  u32 c2[256];
  u32 c3[256];
  __builtin_memset(counts, 0, 256 * sizeof(u32));
  __builtin_memset(c1, 0, sizeof c1);
  __builtin_memset(c2, 0, sizeof c2);
  __builtin_memset(c3, 0, sizeof c3);
  u32 i = 0;
  for (; i + 3 < n; i += 4) {
    counts[lits[i]]++;
    c1[lits[i + 1]]++;
    c2[lits[i + 2]]++;
    c3[lits[i + 3]]++;
  }
  for (; i < n; i++) counts[lits[i]]++;
  for (u32 s = 0; s < 256; s++) counts[s] += c1[s] + c2[s] + c3[s];
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
static u32 write_literals(const u8 *lits, u32 n, u8 *out, u32 pos, i32 allow_huffman) {
  u32 counts[256];
  HuffmanTable table;
  if (n == 0) {
    out[pos] = 0;
    return pos + 1;
  }
  count_bytes(lits, n, counts);
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
    u32 segment = (n + 3) >> 2;
    u32 jump = p;
    p += 6;
    u32 start = 0;
    for (u32 k = 0; k < 4; k++) {
      u32 stop = start + segment < n ? start + segment : n;
      u32 stream_start = p;
      p = write_huffman_stream(lits, start, stop, &table, out, p);
      u32 size = p - stream_start;
      if (k < 3) {
        if (size > 0xffff) return write_raw_literals(lits, n, out, pos);
        out[jump + 2 * k] = (u8)size;
        out[jump + 2 * k + 1] = (u8)(size >> 8);
      }
      start = stop;
    }
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
