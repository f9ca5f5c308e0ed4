/**
 * What each compression level means for this encoder. Levels follow zstd's scale
 * (negative = fastest, 3 = default, 22 = strongest) but the parameters are this
 * encoder's own: a hash table alone for the fast levels, hash chains searched greedily
 * or lazily, deeper and over larger windows as the level rises.
 */

/** Match-finder and entropy settings for one level. */
export interface LevelParams {
  /** log2 of the largest back-reference distance (the frame's window). */
  readonly windowLog: number;
  /** log2 of the hash-table size. */
  readonly hashLog: number;
  /** log2 of the chain-table size; 0 = no chains (the "fast" strategy). */
  readonly chainLog: number;
  /** Candidates examined per position. */
  readonly searchDepth: number;
  /** 0 = greedy, 1 = try one position later, 2 = try two positions later. */
  readonly lazyDepth: number;
  /** Stop searching once a match this long is found. */
  readonly targetLength: number;
  /** Fast strategy: positions skipped per miss grow from this step. */
  readonly step: number;
  /** Whether literals may be Huffman-coded (the fastest negative levels store them raw). */
  readonly huffmanLiterals: boolean;
}

/** Smallest and largest accepted levels (as libzstd: ZSTD_minCLevel() … ZSTD_maxCLevel()). */
export const MIN_LEVEL = -131072;
export const MAX_LEVEL = 22;
/** Level 0 means the default level, as in libzstd. */
export const DEFAULT_LEVEL = 3;

// [windowLog, hashLog, chainLog, searchDepth, lazyDepth, targetLength] for levels 1..22.
const TABLE: ReadonlyArray<readonly [number, number, number, number, number, number]> = [
  [19, 16, 0, 1, 0, 0], // 1
  [20, 17, 15, 2, 0, 16], // 2
  [21, 17, 16, 4, 0, 24], // 3
  [21, 17, 17, 6, 0, 32], // 4
  [21, 18, 17, 8, 1, 32], // 5
  [21, 18, 18, 10, 1, 48], // 6
  [22, 18, 18, 12, 1, 64], // 7
  [22, 18, 19, 16, 2, 64], // 8
  [22, 19, 19, 24, 2, 96], // 9
  [22, 19, 20, 32, 2, 128], // 10
  [22, 19, 20, 40, 2, 128], // 11
  [23, 20, 20, 48, 2, 192], // 12
  [23, 20, 21, 64, 2, 256], // 13
  [23, 20, 21, 80, 2, 256], // 14
  [23, 20, 22, 96, 2, 384], // 15
  [23, 21, 22, 112, 2, 512], // 16
  [23, 21, 22, 128, 2, 768], // 17
  [23, 21, 22, 160, 2, 1024], // 18
  [23, 21, 22, 192, 2, 1024], // 19
  [25, 22, 23, 224, 2, 2048], // 20
  [26, 22, 23, 256, 2, 4096], // 21
  [27, 22, 24, 320, 2, 8192], // 22
];

/** Parameters for `level` (already validated to be an integer in range). */
export function levelParams(level: number): LevelParams {
  if (level === 0) level = DEFAULT_LEVEL;
  if (level < 0) {
    // Negative levels: the fast strategy skipping ahead faster; -level is the step.
    return {
      windowLog: 19,
      hashLog: 15,
      chainLog: 0,
      searchDepth: 1,
      lazyDepth: 0,
      targetLength: 0,
      step: Math.min(-level, 64) + 1,
      huffmanLiterals: level > -8,
    };
  }
  const [windowLog, hashLog, chainLog, searchDepth, lazyDepth, targetLength] = TABLE[level - 1];
  return { windowLog, hashLog, chainLog, searchDepth, lazyDepth, targetLength, step: 1, huffmanLiterals: true };
}
