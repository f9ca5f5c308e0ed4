/**
 * The inverse decorrelating transforms of a block: a lifting step along each axis in
 * turn, the last axis first (libzfp's `inv_xform`), either the lossy non-orthogonal
 * transform or the reversible one (a high-order Lorenzo predictor). The 32-bit forms wrap
 * like C's int32 arithmetic; the 64-bit forms work on pairs of 32-bit halves, wrapping
 * like int64.
 */
import { add64, H, L, sub64 } from "./int64.js";

/**
 * For each dimensionality (index d − 1), the lines the transform visits: axis by axis
 * from the last, the block positions where a line starts and the stride along it.
 */
export const LIFT_LINES: readonly { starts: Uint8Array; stride: number }[][] = [1, 2, 3, 4].map((dims) => {
  const size = 4 ** dims;
  const lines: { starts: Uint8Array; stride: number }[] = [];
  for (let axis = dims - 1; axis >= 0; axis--) {
    const stride = 4 ** axis;
    const starts: number[] = [];
    for (let i = 0; i < size; i++) if (Math.floor(i / stride) % 4 === 0) starts.push(i);
    lines.push({ starts: Uint8Array.from(starts), stride });
  }
  return lines;
});

/** Lossy inverse transform of a 32-bit block in place. */
export function inverseTransform32(p: Int32Array, dims: number): void {
  for (const { starts, stride: s } of LIFT_LINES[dims - 1]) {
    for (let l = 0; l < starts.length; l++) {
      const i = starts[l];
      let x = p[i];
      let y = p[i + s];
      let z = p[i + 2 * s];
      let w = p[i + 3 * s];
      y = (y + (w >> 1)) | 0;
      w = (w - (y >> 1)) | 0;
      y = (y + w) | 0;
      w = ((w << 1) - y) | 0;
      z = (z + x) | 0;
      x = ((x << 1) - z) | 0;
      y = (y + z) | 0;
      z = ((z << 1) - y) | 0;
      w = (w + x) | 0;
      x = ((x << 1) - w) | 0;
      p[i] = x;
      p[i + s] = y;
      p[i + 2 * s] = z;
      p[i + 3 * s] = w;
    }
  }
}

/** Reversible inverse transform of a 32-bit block in place. */
export function reversibleInverseTransform32(p: Int32Array, dims: number): void {
  for (const { starts, stride: s } of LIFT_LINES[dims - 1]) {
    for (let l = 0; l < starts.length; l++) {
      const i = starts[l];
      const x = p[i];
      let y = p[i + s];
      let z = p[i + 2 * s];
      let w = p[i + 3 * s];
      w = (w + z) | 0;
      z = (z + y) | 0;
      w = (w + z) | 0;
      y = (y + x) | 0;
      z = (z + y) | 0;
      w = (w + z) | 0;
      p[i + s] = y;
      p[i + 2 * s] = z;
      p[i + 3 * s] = w;
    }
  }
}

/**
 * Lossy inverse transform of a 64-bit block in place, the integers as high and low 32-bit
 * halves: the same steps as {@link inverseTransform32} in int64 arithmetic.
 */
export function inverseTransform64(hi: Int32Array, lo: Int32Array, dims: number): void {
  for (const { starts, stride: s } of LIFT_LINES[dims - 1]) {
    for (let n = 0; n < starts.length; n++) {
      const i = starts[n];
      let xh = hi[i];
      let xl = lo[i];
      let yh = hi[i + s];
      let yl = lo[i + s];
      let zh = hi[i + 2 * s];
      let zl = lo[i + 2 * s];
      let wh = hi[i + 3 * s];
      let wl = lo[i + 3 * s];
      // y += w >> 1
      add64(yh, yl, wh >> 1, (wl >>> 1) | (wh << 31));
      yh = H;
      yl = L;
      // w -= y >> 1
      sub64(wh, wl, yh >> 1, (yl >>> 1) | (yh << 31));
      wh = H;
      wl = L;
      // y += w
      add64(yh, yl, wh, wl);
      yh = H;
      yl = L;
      // w = (w << 1) − y
      sub64((wh << 1) | (wl >>> 31), wl << 1, yh, yl);
      wh = H;
      wl = L;
      // z += x
      add64(zh, zl, xh, xl);
      zh = H;
      zl = L;
      // x = (x << 1) − z
      sub64((xh << 1) | (xl >>> 31), xl << 1, zh, zl);
      xh = H;
      xl = L;
      // y += z
      add64(yh, yl, zh, zl);
      yh = H;
      yl = L;
      // z = (z << 1) − y
      sub64((zh << 1) | (zl >>> 31), zl << 1, yh, yl);
      zh = H;
      zl = L;
      // w += x
      add64(wh, wl, xh, xl);
      wh = H;
      wl = L;
      // x = (x << 1) − w
      sub64((xh << 1) | (xl >>> 31), xl << 1, wh, wl);
      hi[i] = H;
      lo[i] = L;
      hi[i + s] = yh;
      lo[i + s] = yl;
      hi[i + 2 * s] = zh;
      lo[i + 2 * s] = zl;
      hi[i + 3 * s] = wh;
      lo[i + 3 * s] = wl;
    }
  }
}

/** Reversible inverse transform of a 64-bit block (high and low halves) in place. */
export function reversibleInverseTransform64(hi: Int32Array, lo: Int32Array, dims: number): void {
  for (const { starts, stride: s } of LIFT_LINES[dims - 1]) {
    for (let n = 0; n < starts.length; n++) {
      const i = starts[n];
      const xh = hi[i];
      const xl = lo[i];
      let yh = hi[i + s];
      let yl = lo[i + s];
      let zh = hi[i + 2 * s];
      let zl = lo[i + 2 * s];
      let wh = hi[i + 3 * s];
      let wl = lo[i + 3 * s];
      // w += z; z += y; w += z; y += x; z += y; w += z
      add64(wh, wl, zh, zl);
      wh = H;
      wl = L;
      add64(zh, zl, yh, yl);
      zh = H;
      zl = L;
      add64(wh, wl, zh, zl);
      wh = H;
      wl = L;
      add64(yh, yl, xh, xl);
      yh = H;
      yl = L;
      add64(zh, zl, yh, yl);
      zh = H;
      zl = L;
      add64(wh, wl, zh, zl);
      hi[i + s] = yh;
      lo[i + s] = yl;
      hi[i + 2 * s] = zh;
      lo[i + 2 * s] = zl;
      hi[i + 3 * s] = H;
      lo[i + 3 * s] = L;
    }
  }
}
