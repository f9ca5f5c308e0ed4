// The Sequences_Section of a compressed block (RFC 8878 §3.1.1.3.2): per symbol type the
// cheapest of the predefined distribution, one RLE symbol or an FSE table of the block's
// own statistics, then the interleaved backward-read bitstream. A port of
// src/encoder/sequences.ts.

#define MODE_PREDEFINED 0
#define MODE_RLE 1
#define MODE_COMPRESSED 2

/** One block's literals and (literal length, match length, Offset_Value) sequences. */
typedef struct {
  u8 *literals;
  u32 nb_literals;
  u32 *lit_length;
  u32 *match_length;
  /** Offset_Value: 1..3 are repeat-offset codes, larger values are offset + 3. */
  u32 *off_base;
  u32 nb_seq;
} SequenceStore;

/** The predefined tables (built per call: the kernel keeps nothing between calls). */
typedef struct {
  FseCTable ll;
  FseCTable ml;
  FseCTable of;
} PredefinedTables;

static void build_predefined_tables(PredefinedTables *p) {
  build_encoding_table(LL_DEFAULT_NORM, MAX_LL, LL_DEFAULT_LOG, &p->ll);
  build_encoding_table(ML_DEFAULT_NORM, MAX_ML, ML_DEFAULT_LOG, &p->ml);
  build_encoding_table(OF_DEFAULT_NORM, OF_DEFAULT_SYMBOLS - 1, OF_DEFAULT_LOG, &p->of);
}

/** How one symbol type is coded in a block. */
typedef struct {
  u32 mode;
  /** The table to encode with (null for RLE). */
  const FseCTable *table;
  u32 rle_symbol;
  u32 description_size;
  u8 description[256];
  FseCTable own;
} SymbolCoding;

/** Picks the cheapest coding for one symbol type. */
static void choose_coding(const u32 *counts, i32 max_symbol, u32 nb, const FseCTable *predefined,
                          const i16 *default_norm, i32 default_symbols, u32 default_log, i32 max_log,
                          SymbolCoding *c) {
  i16 norm[FSE_MAX_SYMBOLS];
  u8 desc[256];
  c->table = 0;
  c->rle_symbol = 0;
  c->description_size = 0;
  if (counts[max_symbol] == nb) {
    c->mode = MODE_RLE;
    c->rle_symbol = (u32)max_symbol;
    return;
  }
  double predefined_bits = estimate_bits(counts, max_symbol, default_norm, default_symbols, default_log);
  u32 log = optimal_table_log(max_log, (i32)nb, max_symbol);
  if (normalize_counts(counts, max_symbol, nb, log, norm) == 0) {
    BitWriter w;
    bw_init(&w, desc, 0);
    write_table_description(norm, max_symbol, log, &w);
    u32 desc_size = w.pos;
    double compressed_bits = estimate_bits(counts, max_symbol, norm, max_symbol + 1, log) + (double)(desc_size * 8);
    if (compressed_bits < predefined_bits) {
      c->mode = MODE_COMPRESSED;
      build_encoding_table(norm, max_symbol, log, &c->own);
      c->table = &c->own;
      c->description_size = desc_size;
      __builtin_memcpy(c->description, desc, desc_size);
      return;
    }
  }
  c->mode = MODE_PREDEFINED;
  c->table = predefined;
}

/** Codes per sequence and the three codings: too big for the stack, kept in the workspace. */
typedef struct {
  u8 *ll_code;
  u8 *ml_code;
  u8 *of_code;
  SymbolCoding ll;
  SymbolCoding of;
  SymbolCoding ml;
} SequenceScratch;

/**
 * The interleaved bitstream, from the last sequence to the first so decoders read it
 * forwards: per sequence the FSE symbols (offset, match length, literal length), then the
 * extra bits (literal length, match length, offset). RLE types have no state.
 */
static u32 encode_bitstream(const SequenceStore *store, const SequenceScratch *sc, u8 *out, u32 pos) {
  const FseCTable *ll_table = sc->ll.table;
  const FseCTable *ml_table = sc->ml.table;
  const FseCTable *of_table = sc->of.table;
  const u8 *ll_code = sc->ll_code;
  const u8 *ml_code = sc->ml_code;
  const u8 *of_code = sc->of_code;
  const u32 *lit_length = store->lit_length;
  const u32 *match_length = store->match_length;
  const u32 *off_base = store->off_base;
  BitWriter w;
  bw_init(&w, out, pos);
  i32 last = (i32)store->nb_seq - 1;
  i32 st_ll = ll_table ? fse_initial_state(ll_table, ll_code[last]) : 0;
  i32 st_ml = ml_table ? fse_initial_state(ml_table, ml_code[last]) : 0;
  i32 st_of = of_table ? fse_initial_state(of_table, of_code[last]) : 0;
  u32 c = ll_code[last];
  bw_add(&w, lit_length[last] - LL_BASE[c], LL_BITS[c]);
  c = ml_code[last];
  bw_add(&w, match_length[last] - ML_BASE[c], ML_BITS[c]);
  c = of_code[last];
  bw_add(&w, off_base[last] - (1u << c), c);
  for (i32 i = last - 1; i >= 0; i--) {
    if (of_table) fse_encode(&w, of_table, &st_of, of_code[i]);
    if (ml_table) fse_encode(&w, ml_table, &st_ml, ml_code[i]);
    if (ll_table) fse_encode(&w, ll_table, &st_ll, ll_code[i]);
    c = ll_code[i];
    bw_add(&w, lit_length[i] - LL_BASE[c], LL_BITS[c]);
    c = ml_code[i];
    bw_add(&w, match_length[i] - ML_BASE[c], ML_BITS[c]);
    c = of_code[i];
    bw_add(&w, off_base[i] - (1u << c), c);
  }
  if (ml_table) bw_add(&w, (u32)st_ml, ml_table->table_log);
  if (of_table) bw_add(&w, (u32)st_of, of_table->table_log);
  if (ll_table) bw_add(&w, (u32)st_ll, ll_table->table_log);
  return bw_close(&w);
}

/** Writes the sequences section for `store` at `out[pos]`; returns the end position. */
STAGE u32 write_sequences(const SequenceStore *store, SequenceScratch *sc, const PredefinedTables *pre, u8 *out,
                           u32 pos) {
  u32 nb = store->nb_seq;
  if (nb < 128) {
    out[pos++] = (u8)nb;
  } else if (nb < 0x7f00) {
    out[pos++] = (u8)((nb >> 8) + 0x80);
    out[pos++] = (u8)nb;
  } else {
    out[pos++] = 0xff;
    out[pos++] = (u8)(nb - 0x7f00);
    out[pos++] = (u8)((nb - 0x7f00) >> 8);
  }
  if (nb == 0) return pos;

  u32 ll_counts[MAX_LL + 1];
  u32 ml_counts[MAX_ML + 1];
  u32 of_counts[MAX_OF + 1];
  __builtin_memset(ll_counts, 0, sizeof ll_counts);
  __builtin_memset(ml_counts, 0, sizeof ml_counts);
  __builtin_memset(of_counts, 0, sizeof of_counts);
  u32 max_ll = 0;
  u32 max_ml = 0;
  u32 max_of = 0;
  for (u32 i = 0; i < nb; i++) {
    u32 l = literal_length_code(store->lit_length[i]);
    u32 m = match_length_code(store->match_length[i]);
    u32 o = (u32)high_bit(store->off_base[i]);
    sc->ll_code[i] = (u8)l;
    sc->ml_code[i] = (u8)m;
    sc->of_code[i] = (u8)o;
    ll_counts[l]++;
    ml_counts[m]++;
    of_counts[o]++;
    if (l > max_ll) max_ll = l;
    if (m > max_ml) max_ml = m;
    if (o > max_of) max_of = o;
  }
  choose_coding(ll_counts, (i32)max_ll, nb, &pre->ll, LL_DEFAULT_NORM, MAX_LL + 1, LL_DEFAULT_LOG, LL_MAX_LOG, &sc->ll);
  choose_coding(of_counts, (i32)max_of, nb, &pre->of, OF_DEFAULT_NORM, OF_DEFAULT_SYMBOLS, OF_DEFAULT_LOG, OF_MAX_LOG,
                &sc->of);
  choose_coding(ml_counts, (i32)max_ml, nb, &pre->ml, ML_DEFAULT_NORM, MAX_ML + 1, ML_DEFAULT_LOG, ML_MAX_LOG, &sc->ml);
  out[pos++] = (u8)((sc->ll.mode << 6) | (sc->of.mode << 4) | (sc->ml.mode << 2));
  const SymbolCoding *order[3] = {&sc->ll, &sc->of, &sc->ml};
  for (u32 k = 0; k < 3; k++) {
    const SymbolCoding *c = order[k];
    if (c->mode == MODE_RLE) {
      out[pos++] = (u8)c->rle_symbol;
    } else if (c->mode == MODE_COMPRESSED) {
      __builtin_memcpy(out + pos, c->description, c->description_size);
      pos += c->description_size;
    }
  }
  return encode_bitstream(store, sc, out, pos);
}
