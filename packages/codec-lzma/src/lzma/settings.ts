/** Encoder settings and the liblzma presets they come from. */

/** Everything the LZMA encoder needs to know. */
export interface LzmaEncoderSettings {
  /** Literal context bits (0..4, lc + lp ≤ 4). */
  lc: number;
  /** Literal position bits (0..4). */
  lp: number;
  /** Position bits (0..4). */
  pb: number;
  /** Dictionary size in bytes: the farthest a match may reach. */
  dictSize: number;
  /** A match this long is taken without looking further. */
  niceLen: number;
  /** Match finder search depth (candidates per position). */
  depth: number;
  /** "fast": greedy + lazy parsing; "normal": price-based optimal parsing. */
  mode: "fast" | "normal";
  /** "hc": hash chain; "bt": binary tree. */
  matchFinder: "hc" | "bt";
}

/** liblzma's `PRESET_EXTREME` flag. */
export const PRESET_EXTREME = 0x80000000;

const DICT_SIZES = [1 << 18, 1 << 20, 1 << 21, 1 << 22, 1 << 22, 1 << 23, 1 << 23, 1 << 24, 1 << 25, 1 << 26];

/** Settings of an xz preset 0..9 (optionally with the extreme flag), as liblzma defines them. */
export function presetSettings(preset: number): LzmaEncoderSettings {
  const extreme = preset >= PRESET_EXTREME;
  const level = extreme ? preset - PRESET_EXTREME : preset;
  const settings: LzmaEncoderSettings = {
    lc: 3,
    lp: 0,
    pb: 2,
    dictSize: DICT_SIZES[level],
    niceLen: 64,
    depth: 0,
    mode: "normal",
    matchFinder: "bt",
  };
  if (level <= 3) {
    settings.mode = "fast";
    settings.matchFinder = "hc";
    settings.niceLen = level <= 1 ? 128 : 273;
    settings.depth = [4, 8, 24, 48][level];
  } else {
    settings.niceLen = level === 4 ? 16 : level === 5 ? 32 : 64;
  }
  if (extreme) {
    settings.mode = "normal";
    settings.matchFinder = "bt";
    if (level === 3 || level === 5) {
      settings.niceLen = 192;
      settings.depth = 0;
    } else {
      settings.niceLen = 273;
      settings.depth = 512;
    }
  }
  return settings;
}

/** The search depth actually used: liblzma's automatic depth when 0. */
export function effectiveDepth(settings: LzmaEncoderSettings): number {
  if (settings.depth > 0) return settings.depth;
  return settings.matchFinder === "hc" ? 4 + (settings.niceLen >>> 2) : 16 + (settings.niceLen >>> 1);
}

/**
 * The dictionary size to declare for `inputSize` bytes: the smallest size of the form
 * 2^n or 3·2^(n-1) (what LZMA2 can express, and what .lzma readers expect) that covers
 * min(input size, configured dictionary). Declaring less than the
 * configured size for small inputs lets decoders allocate less.
 */
export function declaredDictSize(dictSize: number, inputSize: number): number {
  const needed = Math.max(4096, Math.min(dictSize, inputSize));
  return lzma2DictSize(lzma2DictByte(needed));
}

/** The smallest LZMA2 dictionary properties byte whose size is at least `size`. */
export function lzma2DictByte(size: number): number {
  for (let b = 0; b < 40; b++) {
    if ((2 | (b & 1)) * 2 ** ((b >>> 1) + 11) >= size) return b;
  }
  return 40;
}

function lzma2DictSize(byte: number): number {
  return byte === 40 ? 0xffffffff : (2 | (byte & 1)) * 2 ** ((byte >>> 1) + 11);
}
