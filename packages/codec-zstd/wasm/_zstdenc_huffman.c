// Huffman coding of literals (RFC 8878 §4.2): length-limited codes (≤ 11 bits), zstd's
// canonical assignment, the tree description (direct 4-bit weights or FSE-compressed
// weights) and the backward-read streams. A port of src/encoder/huffman.ts.

#define HUFFMAN_MAX_BITS 11
#define WEIGHTS_MAX_LOG 6

typedef struct {
  /** Code length per byte value (0 = absent). */
  u8 lengths[256];
  /** Per byte value: code << 4 | length. */
  u32 packed[256];
  i32 max_bits;
  i32 max_symbol;
} HuffmanTable;

/** Builds the code for `counts[0..255]` (at least two byte values present). */
STAGE void build_huffman_table(const u32 *counts, HuffmanTable *t) {
  u32 keys[256];
  u16 symbols[256];
  u32 weight[512];
  u16 parent[512];
  u8 depth[512];
  i32 n = 0;
  i32 max_symbol = 0;
  for (i32 s = 0; s < 256; s++) {
    if (counts[s] != 0) {
      // Counts are below 2^24 (a block holds 2^17 literals): count and symbol in one key.
      keys[n++] = counts[s] << 8 | (u32)s;
      max_symbol = s;
    }
  }
  // Least frequent first, ties by symbol: shell sort of the keys (gaps of Ciura's sequence).
  static const u8 GAPS[] = {132, 57, 23, 10, 4, 1};
  for (u32 g = 0; g < sizeof GAPS; g++) {
    i32 gap = GAPS[g];
    for (i32 i = gap; i < n; i++) {
      u32 key = keys[i];
      i32 j = i;
      while (j >= gap && keys[j - gap] > key) {
        keys[j] = keys[j - gap];
        j -= gap;
      }
      keys[j] = key;
    }
  }
  for (i32 i = 0; i < n; i++) symbols[i] = (u16)(keys[i] & 0xff);
  // Two-queue Huffman: leaves 0..n-1 (sorted), internal nodes n..2n-2 in creation order.
  for (i32 i = 0; i < n; i++) weight[i] = counts[symbols[i]];
  i32 leaf = 0;
  i32 inner = n;
  for (i32 k = n; k < 2 * n - 1; k++) {
    i32 a;
    i32 b;
    if (leaf < n && (inner >= k || weight[leaf] <= weight[inner])) a = leaf++;
    else a = inner++;
    if (leaf < n && (inner >= k || weight[leaf] <= weight[inner])) b = leaf++;
    else b = inner++;
    weight[k] = weight[a] + weight[b];
    parent[a] = (u16)k;
    parent[b] = (u16)k;
  }
  depth[2 * n - 2] = 0;
  for (i32 k = 2 * n - 3; k >= 0; k--) depth[k] = (u8)(depth[parent[k]] + 1);

  // Count codes per length, clamping at the limit, then repair the Kraft sum.
  i32 bl_count[HUFFMAN_MAX_BITS + 1];
  for (i32 l = 0; l <= HUFFMAN_MAX_BITS; l++) bl_count[l] = 0;
  for (i32 i = 0; i < n; i++) bl_count[min_i32(depth[i], HUFFMAN_MAX_BITS)]++;
  i32 kraft = 0;
  for (i32 len = 1; len <= HUFFMAN_MAX_BITS; len++) kraft += bl_count[len] << (HUFFMAN_MAX_BITS - len);
  i32 overflow = kraft - (1 << HUFFMAN_MAX_BITS);
  while (overflow > 0) {
    // One leaf from the deepest non-full level moves down and pairs with a leaf of the last level.
    i32 bits = HUFFMAN_MAX_BITS - 1;
    while (bits > 1 && bl_count[bits] == 0) bits--;
    bl_count[bits]--;
    bl_count[bits + 1] += 2;
    bl_count[HUFFMAN_MAX_BITS]--;
    overflow--;
  }

  // The least frequent symbols get the longest codes.
  for (i32 s = 0; s < 256; s++) t->lengths[s] = 0;
  i32 len = HUFFMAN_MAX_BITS;
  for (i32 i = 0; i < n; i++) {
    while (len > 1 && bl_count[len] == 0) len--;
    t->lengths[symbols[i]] = (u8)len;
    bl_count[len]--;
  }
  i32 max_bits = 0;
  for (i32 s = 0; s <= max_symbol; s++) {
    if (t->lengths[s] > max_bits) max_bits = t->lengths[s];
  }

  // zstd's canonical order: longest codes first, by symbol value within a length.
  i32 per_length[HUFFMAN_MAX_BITS + 1];
  i32 next_code[HUFFMAN_MAX_BITS + 1];
  for (i32 l = 0; l <= HUFFMAN_MAX_BITS; l++) per_length[l] = 0;
  for (i32 s = 0; s <= max_symbol; s++) per_length[t->lengths[s]]++;
  i32 code = 0;
  for (i32 l = max_bits; l >= 1; l--) {
    next_code[l] = code;
    code = (code + per_length[l]) >> 1;
  }
  for (i32 s = 0; s < 256; s++) t->packed[s] = 0;
  for (i32 s = 0; s <= max_symbol; s++) {
    u32 l = t->lengths[s];
    if (l != 0) t->packed[s] = ((u32)next_code[l]++ << 4) | l;
  }
  t->max_bits = max_bits;
  t->max_symbol = max_symbol;
}

/** Exact size in bits of the Huffman-coded payload of `counts`. */
static u32 huffman_payload_bits(const u32 *counts, const HuffmanTable *t) {
  u32 bits = 0;
  for (i32 s = 0; s <= t->max_symbol; s++) bits += counts[s] * t->lengths[s];
  return bits;
}

/** Bits [end - n, end) of the stream at `buf`, little-endian; bits below 0 read as zero. */
static u32 read_bits_back(const u8 *buf, i32 end, i32 n) {
  u32 v = 0;
  for (i32 k = 0; k < n; k++) {
    i32 bit = end - n + k;
    if (bit < 0) continue;
    v |= (u32)((buf[bit >> 3] >> (bit & 7)) & 1) << k;
  }
  return v;
}

/**
 * Replays how decoders read the weight stream at `buf[desc_end..size)`: they stop on
 * bitstream overflow, so a final state update needing zero bits would make them produce
 * an extra weight. Both the reference decoder's rule and fzstd's must give back `weights`.
 */
static i32 weights_decode_back(const u8 *buf, u32 desc_end, u32 size, const i16 *norm, i32 max_sym, u32 log,
                               const u8 *weights, i32 nb_weights) {
  FseDTable dt;
  u8 got[260];
  build_decoding_table(norm, max_sym, log, &dt);
  u8 last = buf[size - 1];
  if (last == 0) return 0;
  i32 total_bits = (i32)(size - desc_end) * 8 - (8 - high_bit(last));
  const u8 *stream = buf + desc_end;
  if (total_bits < 2 * (i32)log) return 0;
  for (i32 rule = 0; rule < 2; rule++) {
    i32 count = 0;
    if (rule == 0) {
      // Reference rule: emit state 1, update it; on overflow emit state 2 and stop; and vice versa.
      i32 pos = total_bits - (i32)log;
      u32 st1 = read_bits_back(stream, pos + (i32)log, (i32)log);
      pos -= (i32)log;
      u32 st2 = read_bits_back(stream, pos + (i32)log, (i32)log);
      for (;;) {
        if (count > 255) return 0;
        got[count++] = dt.symbol[st1];
        i32 nb = dt.nb_bits[st1];
        st1 = dt.baseline[st1] + read_bits_back(stream, pos, nb);
        pos -= nb;
        if (pos < 0) {
          got[count++] = dt.symbol[st2];
          break;
        }
        got[count++] = dt.symbol[st2];
        nb = dt.nb_bits[st2];
        st2 = dt.baseline[st2] + read_bits_back(stream, pos, nb);
        pos -= nb;
        if (pos < 0) {
          got[count++] = dt.symbol[st1];
          break;
        }
      }
    } else {
      // fzstd's rule: read the state bits first, emit only if they were all there.
      i32 nb1 = (i32)log;
      i32 nb2 = (i32)log;
      i32 p = total_bits;
      u32 a = 0;
      u32 b = 0;
      for (;;) {
        if (count > 255) return 0;
        p -= nb1;
        if (p < 0) break;
        a += read_bits_back(stream, p + nb1, nb1);
        got[count++] = dt.symbol[a];
        p -= nb2;
        if (p < 0) break;
        b += read_bits_back(stream, p + nb2, nb2);
        got[count++] = dt.symbol[b];
        nb1 = dt.nb_bits[a];
        a = dt.baseline[a];
        nb2 = dt.nb_bits[b];
        b = dt.baseline[b];
      }
    }
    if (count != nb_weights) return 0;
    for (i32 k = 0; k < count; k++) {
      if (got[k] != weights[k]) return 0;
    }
  }
  return 1;
}

/**
 * FSE-compresses the weights with two interleaved states; returns the end position or -1
 * when FSE cannot describe them in < 128 bytes.
 */
static i32 write_compressed_weights(const u8 *weights, i32 n, i32 max_weight, u8 *out, u32 pos) {
  u32 counts[HUFFMAN_MAX_BITS + 2];
  // Longest stream: 255 weights of ≤ 6 bits plus the description; slack for the bit writer.
  u8 scratch[512];
  i16 norm[HUFFMAN_MAX_BITS + 2];
  FseCTable table;
  for (i32 w = 0; w <= max_weight; w++) counts[w] = 0;
  u32 max_count = 0;
  i32 max_sym = 0;
  for (i32 i = 0; i < n; i++) {
    u32 w = weights[i];
    counts[w]++;
    if (counts[w] > max_count) max_count = counts[w];
    if ((i32)w > max_sym) max_sym = (i32)w;
  }
  if (max_count == (u32)n) return -1;  // a single weight value: FSE needs two symbols
  for (i32 log = (i32)optimal_table_log(WEIGHTS_MAX_LOG, n, max_sym); log >= 5; log--) {
    if (normalize_counts(counts, max_sym, (u32)n, (u32)log, norm) < 0) return -1;
    BitWriter writer;
    bw_init(&writer, scratch, 0);
    write_table_description(norm, max_sym, (u32)log, &writer);
    u32 desc_end = writer.pos;
    build_encoding_table(norm, max_sym, (u32)log, &table);
    // Encode backwards: the decoder's state 1 yields even-indexed weights, state 2 odd ones.
    i32 i = n;
    i32 s1;
    i32 s2;
    if ((n & 1) == 1) {
      s1 = fse_initial_state(&table, weights[--i]);
      s2 = fse_initial_state(&table, weights[--i]);
      fse_encode(&writer, &table, &s1, weights[--i]);
    } else {
      s2 = fse_initial_state(&table, weights[--i]);
      s1 = fse_initial_state(&table, weights[--i]);
    }
    while (i > 0) {
      fse_encode(&writer, &table, &s2, weights[--i]);
      fse_encode(&writer, &table, &s1, weights[--i]);
    }
    bw_add(&writer, (u32)s2, (u32)log);
    bw_add(&writer, (u32)s1, (u32)log);
    u32 size = bw_close(&writer);
    if (size >= 128) return -1;
    if (!weights_decode_back(scratch, desc_end, size, norm, max_sym, (u32)log, weights, n)) continue;
    out[pos] = (u8)size;
    __builtin_memcpy(out + pos + 1, scratch, size);
    return (i32)(pos + 1 + size);
  }
  return -1;
}

/**
 * Writes the Huffman tree description at `out[pos]`; returns the end position, or -1 when
 * the weights cannot be described (the caller then stores literals raw).
 */
STAGE i32 write_tree_description(const HuffmanTable *t, u8 *out, u32 pos) {
  u8 weights[256];
  i32 nb_weights = t->max_symbol;  // the last symbol's weight is implied
  for (i32 s = 0; s < nb_weights; s++) {
    i32 l = t->lengths[s];
    weights[s] = (u8)(l == 0 ? 0 : t->max_bits + 1 - l);
  }
  i32 direct_size = nb_weights <= 128 ? 1 + ((nb_weights + 1) >> 1) : -1;
  i32 fse_end = nb_weights >= 2 ? write_compressed_weights(weights, nb_weights, t->max_bits, out, pos) : -1;
  if (fse_end >= 0 && (direct_size < 0 || fse_end - (i32)pos < direct_size)) return fse_end;
  if (direct_size < 0) return -1;
  out[pos] = (u8)(127 + nb_weights);
  for (i32 i = 0; i < nb_weights; i += 2) {
    out[pos + 1 + (i >> 1)] = (u8)((weights[i] << 4) | (i + 1 < nb_weights ? weights[i + 1] : 0));
  }
  return (i32)pos + direct_size;
}

/**
 * A Huffman stream being written, filled from the top: each code goes into the top bits of
 * `acc` after shifting the earlier ones down by its length, so the B pending bits sit in
 * acc's top B bits, earliest lowest (acc >> (64 - B) is the stream's next bits, LSB first).
 * A symbol's entry is code << (64 - length) | length: `acc >> entry` shifts by the length
 * (shift counts are taken mod 64) and `acc | entry` leaves the length below the pending bits
 * (they stay above bit 8: at most 56 pending), so there is no masking per symbol, and the bit
 * count (the low byte of `bits`) is not on the chain that builds `acc`.
 */
typedef struct {
  u64 acc;
  u64 bits;
  u32 pos;
} HufStream;

static inline void huf_put(HufStream *s, u64 entry) {
  s->acc = (s->acc >> (entry & 63)) | entry;
  s->bits += entry;
}

/** The pending bits, LSB first (at least one pending). */
static inline u64 huf_pending(const HufStream *s, u32 n) { return (s->acc >> (63 - n)) >> 1; }

/** Stores the whole bytes with one 8-byte store: writes up to 8 bytes past them. */
static inline void huf_flush(HufStream *s, u8 *out) {
  u32 n = (u32)s->bits & 0xff;
  store64(out + s->pos, huf_pending(s, n));
  s->pos += n >> 3;
  s->bits = n & 7;
}

/** Stores the whole bytes one by one: nothing past them. */
static inline void huf_flush_exact(HufStream *s, u8 *out) {
  u32 n = (u32)s->bits & 0xff;
  while (n >= 8) {
    out[s->pos++] = (u8)huf_pending(s, n);
    n -= 8;
  }
  s->bits = n;
}

/**
 * Codes src[start..i) (last symbol first, so the decoder emits them in order), then the end
 * marker and the padding. Each 8-byte store happens only while at least 56 symbols (so at
 * least 56 more bits) follow, so nothing is written past the stream's end.
 */
static u32 huf_finish(HufStream *s, const u8 *src, u32 start, u32 i, const u64 *codes, u8 *out) {
  huf_flush_exact(s, out);
  while (i - start >= 4 + 56) {
    huf_put(s, codes[src[i - 1]]);
    huf_put(s, codes[src[i - 2]]);
    huf_put(s, codes[src[i - 3]]);
    huf_put(s, codes[src[i - 4]]);
    i -= 4;
    huf_flush(s, out);
  }
  while (i > start) {
    huf_put(s, codes[src[--i]]);
    huf_flush_exact(s, out);
  }
  // End marker, then the partial byte (zero padding above the marker).
  huf_put(s, 1ull << 63 | 1);
  u32 n = (u32)s->bits & 0xff;
  u64 last = huf_pending(s, n);
  for (u32 k = 0; k < n; k += 8) out[s->pos++] = (u8)(last >> k);
  return s->pos;
}

/** The per-symbol entries of `t` for the stream writers. */
static void huf_entries(const HuffmanTable *t, u64 *codes) {
  for (u32 s = 0; s < 256; s++) {
    u32 length = t->packed[s] & 15;
    codes[s] = length == 0 ? 0 : (u64)(t->packed[s] >> 4) << (64 - length) | length;
  }
}

/** Codes src[start..end) as one stream at out[pos]; returns the end position. */
static u32 write_huffman_stream(const u8 *src, u32 start, u32 end, const HuffmanTable *t, u8 *out, u32 pos) {
  u64 codes[256];
  huf_entries(t, codes);
  HufStream s = {0, 0, pos};
  return huf_finish(&s, src, start, end, codes, out);
}

/**
 * Codes the four segments of lits[0..n) as four streams placed back to back from out[pos],
 * stream k taking exactly sizes[k] bytes (known from the segments' histograms). The streams
 * are written in lockstep: four independent bit positions keep the processor busy where one
 * stream is a chain of dependent shifts.
 */
STAGE void write_huffman_streams4(const u8 *lits, u32 n, const u32 *sizes, const HuffmanTable *t, u8 *out, u32 pos) {
  u64 packed[256];
  huf_entries(t, packed);
  u32 segment = (n + 3) >> 2;
  HufStream s[4];
  u32 next[4];
  u32 first[4];
  for (u32 k = 0; k < 4; k++) {
    first[k] = k * segment < n ? k * segment : n;
    next[k] = (k + 1) * segment < n ? (k + 1) * segment : n;
    s[k].acc = 0;
    s[k].bits = 0;
    s[k].pos = pos;
    pos += sizes[k];
  }
  // Lockstep while every stream has more than 56 symbols left after the group.
  // The last segment is the shortest.
  u32 groups = 0;
  if (next[3] - first[3] >= 4 + 56 + 3) {
    // The first (length mod 4) symbols of each stream on their own.
    for (u32 k = 0; k < 4; k++) {
      while ((next[k] - first[k]) & 3) huf_put(&s[k], packed[lits[--next[k]]]);
      huf_flush(&s[k], out);
    }
    groups = (next[3] - first[3] - 56) >> 2;
  }
  // Four streams in locals, so they stay in registers.
  HufStream a = s[0];
  HufStream b = s[1];
  HufStream c = s[2];
  HufStream d = s[3];
  const u8 *pa = lits + next[0];
  const u8 *pb = lits + next[1];
  const u8 *pc = lits + next[2];
  const u8 *pd = lits + next[3];
  for (u32 g = 0; g < groups; g++) {
    pa -= 4;
    pb -= 4;
    pc -= 4;
    pd -= 4;
    huf_put(&a, packed[pa[3]]);
    huf_put(&b, packed[pb[3]]);
    huf_put(&c, packed[pc[3]]);
    huf_put(&d, packed[pd[3]]);
    huf_put(&a, packed[pa[2]]);
    huf_put(&b, packed[pb[2]]);
    huf_put(&c, packed[pc[2]]);
    huf_put(&d, packed[pd[2]]);
    huf_put(&a, packed[pa[1]]);
    huf_put(&b, packed[pb[1]]);
    huf_put(&c, packed[pc[1]]);
    huf_put(&d, packed[pd[1]]);
    huf_put(&a, packed[pa[0]]);
    huf_put(&b, packed[pb[0]]);
    huf_put(&c, packed[pc[0]]);
    huf_put(&d, packed[pd[0]]);
    huf_flush(&a, out);
    huf_flush(&b, out);
    huf_flush(&c, out);
    huf_flush(&d, out);
  }
  s[0] = a;
  s[1] = b;
  s[2] = c;
  s[3] = d;
  for (u32 k = 0; k < 4; k++) next[k] -= 4 * groups;
  for (u32 k = 0; k < 4; k++) huf_finish(&s[k], lits, first[k], next[k], packed, out);
}
