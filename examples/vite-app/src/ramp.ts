// The colour ramp: values mapped linearly between two bounds onto three colour stops
// (viridis' ends and middle). Pure, so the test computes the expected pixels with it.

/** An RGB colour, 0–255 per channel. */
export type Rgb = readonly [number, number, number];

/** The ramp's stops, from the lowest value to the highest. */
export const RAMP_STOPS: readonly Rgb[] = [
  [68, 1, 84],
  [33, 145, 140],
  [253, 231, 37],
];

/** The lowest and highest value of the data, which the ramp spans. */
export interface ValueRange {
  min: number;
  max: number;
}

/**
 * The colour of `value` on the ramp over `range` (clamped at its ends), or undefined for
 * NaN (drawn transparent).
 */
export function rampColour(value: number, range: ValueRange): Rgb | undefined {
  if (Number.isNaN(value)) return undefined;
  const span = range.max - range.min;
  const t = span > 0 ? Math.min(1, Math.max(0, (value - range.min) / span)) : 0;
  const pos = t * (RAMP_STOPS.length - 1);
  const i = Math.min(RAMP_STOPS.length - 2, Math.floor(pos));
  const f = pos - i;
  const [a, b] = [RAMP_STOPS[i], RAMP_STOPS[i + 1]];
  return [Math.round(a[0] + (b[0] - a[0]) * f), Math.round(a[1] + (b[1] - a[1]) * f), Math.round(a[2] + (b[2] - a[2]) * f)];
}

/** The lowest and highest non-NaN value over several arrays ({min: 0, max: 0} when none). */
export function valueRange(parts: Iterable<ArrayLike<number>>): ValueRange {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const part of parts)
    for (let i = 0; i < part.length; i++) {
      const v = part[i];
      if (v < min) min = v;
      if (v > max) max = v;
    }
  return min <= max ? { min, max } : { min: 0, max: 0 };
}

/** RGBA pixels of a `width`×`height` row-major tile on the ramp. */
export function tilePixels(values: ArrayLike<number>, width: number, height: number, range: ValueRange): ImageData {
  const image = new ImageData(width, height);
  for (let k = 0; k < width * height; k++) {
    const rgb = rampColour(values[k], range);
    if (rgb === undefined) continue; // stays transparent
    image.data.set(rgb, k * 4);
    image.data[k * 4 + 3] = 255;
  }
  return image;
}
