/**
 * The inverse decorrelating transforms of a block: a lifting step along each axis in
 * turn, the last axis first (libzfp's `inv_xform`), either the lossy non-orthogonal
 * transform or the reversible one (a high-order Lorenzo predictor). The 32-bit forms wrap
 * like C's int32 arithmetic; the 64-bit forms work on BigInts wrapped to int64.
 */

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

const wrap = (v: bigint): bigint => BigInt.asIntN(64, v);

/** Lossy inverse transform of a 64-bit block in place (the array's stores wrap to int64). */
export function inverseTransform64(p: BigInt64Array, dims: number): void {
  for (const { starts, stride: s } of LIFT_LINES[dims - 1]) {
    for (let l = 0; l < starts.length; l++) {
      const i = starts[l];
      let x = p[i];
      let y = p[i + s];
      let z = p[i + 2 * s];
      let w = p[i + 3 * s];
      // Wrapped before every arithmetic shift, as int64 arithmetic would leave them.
      y = wrap(y + (w >> 1n));
      w = wrap(w - (y >> 1n));
      y = wrap(y + w);
      w = wrap((w << 1n) - y);
      z = wrap(z + x);
      x = wrap((x << 1n) - z);
      y = wrap(y + z);
      z = wrap((z << 1n) - y);
      w = wrap(w + x);
      x = (x << 1n) - w;
      p[i] = x;
      p[i + s] = y;
      p[i + 2 * s] = z;
      p[i + 3 * s] = w;
    }
  }
}

/** Reversible inverse transform of a 64-bit block in place. */
export function reversibleInverseTransform64(p: BigInt64Array, dims: number): void {
  for (const { starts, stride: s } of LIFT_LINES[dims - 1]) {
    for (let l = 0; l < starts.length; l++) {
      const i = starts[l];
      const x = p[i];
      let y = p[i + s];
      let z = p[i + 2 * s];
      let w = p[i + 3 * s];
      // Only additions: wrapping once at the store gives the same bits.
      w += z;
      z += y;
      w += z;
      y += x;
      z += y;
      w += z;
      p[i + s] = y;
      p[i + 2 * s] = z;
      p[i + 3 * s] = w;
    }
  }
}
