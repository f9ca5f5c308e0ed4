// XXH64 with seed 0, the hash behind zstd's Content_Checksum (the frame keeps its low 32
// bits), from the xxHash specification.

#define XXH_P1 0x9E3779B185EBCA87ull
#define XXH_P2 0xC2B2AE3D27D4EB4Full
#define XXH_P3 0x165667B19E3779F9ull
#define XXH_P4 0x85EBCA77C2B2AE63ull
#define XXH_P5 0x27D4EB2F165667C5ull

static inline u64 rotl64(u64 x, u32 r) { return (x << r) | (x >> (64 - r)); }

static inline u64 xxh_round(u64 acc, u64 input) { return rotl64(acc + input * XXH_P2, 31) * XXH_P1; }

static inline u64 xxh_merge(u64 h, u64 v) { return (h ^ xxh_round(0, v)) * XXH_P1 + XXH_P4; }

STAGE u64 xxh64(const u8 *p, u32 len) {
  const u8 *end = p + len;
  u64 h;
  if (len >= 32) {
    u64 v1 = XXH_P1 + XXH_P2;
    u64 v2 = XXH_P2;
    u64 v3 = 0;
    u64 v4 = 0 - XXH_P1;
    const u8 *limit = end - 32;
    do {
      v1 = xxh_round(v1, load64(p));
      v2 = xxh_round(v2, load64(p + 8));
      v3 = xxh_round(v3, load64(p + 16));
      v4 = xxh_round(v4, load64(p + 24));
      p += 32;
    } while (p <= limit);
    h = rotl64(v1, 1) + rotl64(v2, 7) + rotl64(v3, 12) + rotl64(v4, 18);
    h = xxh_merge(h, v1);
    h = xxh_merge(h, v2);
    h = xxh_merge(h, v3);
    h = xxh_merge(h, v4);
  } else {
    h = XXH_P5;
  }
  h += len;
  while (p + 8 <= end) {
    h = rotl64(h ^ xxh_round(0, load64(p)), 27) * XXH_P1 + XXH_P4;
    p += 8;
  }
  if (p + 4 <= end) {
    h = rotl64(h ^ ((u64)load32(p) * XXH_P1), 23) * XXH_P2 + XXH_P3;
    p += 4;
  }
  while (p < end) {
    h = rotl64(h ^ (*p * XXH_P5), 11) * XXH_P1;
    p++;
  }
  h ^= h >> 33;
  h *= XXH_P2;
  h ^= h >> 29;
  h *= XXH_P3;
  h ^= h >> 32;
  return h;
}
