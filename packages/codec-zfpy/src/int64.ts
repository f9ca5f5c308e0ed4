/**
 * 64-bit two's complement integers as pairs of 32-bit halves (`hi` signed, `lo` taken as
 * unsigned), for the 64-bit block decoder: BigInts would allocate on every operation.
 * Each operation leaves its result in {@link H} and {@link L}, wrapping like int64.
 */

/** High half of the last result. */
export let H = 0;
/** Low half of the last result (as an int32; `L >>> 0` is its unsigned value). */
export let L = 0;

/** (ah, al) + (bh, bl). */
export function add64(ah: number, al: number, bh: number, bl: number): void {
  const low = (al >>> 0) + (bl >>> 0);
  L = low | 0;
  H = (ah + bh + (low > 0xffffffff ? 1 : 0)) | 0;
}

/** (ah, al) − (bh, bl). */
export function sub64(ah: number, al: number, bh: number, bl: number): void {
  const low = (al >>> 0) - (bl >>> 0);
  L = low | 0;
  H = (ah - bh - (low < 0 ? 1 : 0)) | 0;
}

/** The exact value as a double, rounded once to nearest (as C's int64 → double conversion). */
export function toNumber64(h: number, l: number): number {
  return h * 4294967296 + (l >>> 0);
}
