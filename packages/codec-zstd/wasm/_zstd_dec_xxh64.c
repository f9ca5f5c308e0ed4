// XXH64 (seed 0), whose low 32 bits are a zstd frame's Content_Checksum (RFC 8878 §3.1.1).
// The algorithm as src/xxh64.ts computes it, on native 64-bit integers.
#pragma once
#include "_zstd_dec_common.c"

#define ZD_P1 0x9E3779B185EBCA87ull
#define ZD_P2 0xC2B2AE3D27D4EB4Full
#define ZD_P3 0x165667B19E3779F9ull
#define ZD_P4 0x85EBCA77C2B2AE63ull
#define ZD_P5 0x27D4EB2F165667C5ull

static inline u64 zd_rotl64(u64 x, u32 r) { return (x << r) | (x >> (64 - r)); }

static inline u64 zd_xxh_round(u64 acc, u64 lane) { return zd_rotl64(acc + lane * ZD_P2, 31) * ZD_P1; }

static inline u64 zd_xxh_merge(u64 acc, u64 v) { return (acc ^ zd_xxh_round(0, v)) * ZD_P1 + ZD_P4; }

static u64 zd_xxh64(const u8* p, u32 n) {
  const u8* end = p + n;
  u64 h;
  if (n >= 32) {
    u64 v1 = ZD_P1 + ZD_P2, v2 = ZD_P2, v3 = 0, v4 = 0 - ZD_P1;
    const u8* stop = end - 32;
    do {
      v1 = zd_xxh_round(v1, zd_load64(p));
      v2 = zd_xxh_round(v2, zd_load64(p + 8));
      v3 = zd_xxh_round(v3, zd_load64(p + 16));
      v4 = zd_xxh_round(v4, zd_load64(p + 24));
      p += 32;
    } while (p <= stop);
    h = zd_rotl64(v1, 1) + zd_rotl64(v2, 7) + zd_rotl64(v3, 12) + zd_rotl64(v4, 18);
    h = zd_xxh_merge(h, v1);
    h = zd_xxh_merge(h, v2);
    h = zd_xxh_merge(h, v3);
    h = zd_xxh_merge(h, v4);
  } else {
    h = ZD_P5;
  }
  h += n;
  while (p + 8 <= end) {
    h ^= zd_xxh_round(0, zd_load64(p));
    h = zd_rotl64(h, 27) * ZD_P1 + ZD_P4;
    p += 8;
  }
  if (p + 4 <= end) {
    h ^= (u64)zd_load32(p) * ZD_P1;
    h = zd_rotl64(h, 23) * ZD_P2 + ZD_P3;
    p += 4;
  }
  while (p < end) {
    h ^= (u64)(*p) * ZD_P5;
    h = zd_rotl64(h, 11) * ZD_P1;
    p++;
  }
  h ^= h >> 33;
  h *= ZD_P2;
  h ^= h >> 29;
  h *= ZD_P3;
  h ^= h >> 32;
  return h;
}
