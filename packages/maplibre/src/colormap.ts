/** Colour maps as 256-entry RGBA tables, and colouring a tile's values with one. */
import { ZarrError } from "@zarr/spec";
import { TABLES } from "./colormap-tables.js";

/** The built-in colour maps: perceptually uniform `viridis` and `magma`, `greys` (black → white), diverging `rdbu` (red → blue). */
export type ColormapName = "viridis" | "magma" | "greys" | "rdbu";

/** Names of the built-in colour maps. */
export const COLORMAPS: readonly ColormapName[] = ["viridis", "magma", "greys", "rdbu"];

/** A colour map: a name, or 256 RGBA entries (1024 bytes) of your own. */
export type Colormap = ColormapName | Uint8Array;

const decoded = new Map<string, Uint8Array>();

/**
 * The 256 RGBA entries (1024 bytes, alpha 255) of a colour map, lowest value first;
 * `reverse` flips it (e.g. `rdbu` reversed for blue = low).
 *
 * @example
 * ```ts
 * colormapTable("viridis").subarray(0, 4); // [68, 1, 84, 255]
 * ```
 */
export function colormapTable(colormap: Colormap, options: { reverse?: boolean } = {}): Uint8Array {
  let table: Uint8Array;
  if (colormap instanceof Uint8Array) {
    if (colormap.length !== 1024) throw new ZarrError("INVALID_ARGUMENT", `A colour map table has 256 RGBA entries (1024 bytes), got ${colormap.length} bytes`);
    table = colormap;
  } else {
    const hex = TABLES[colormap];
    if (hex === undefined) throw new ZarrError("INVALID_ARGUMENT", `Unknown colour map "${String(colormap)}" (known: ${COLORMAPS.join(", ")})`);
    let cached = decoded.get(colormap);
    if (cached === undefined) {
      cached = new Uint8Array(1024);
      for (let i = 0; i < 256; i++) {
        for (let ch = 0; ch < 3; ch++) cached[i * 4 + ch] = Number.parseInt(hex.slice(i * 6 + ch * 2, i * 6 + ch * 2 + 2), 16);
        cached[i * 4 + 3] = 255;
      }
      decoded.set(colormap, cached);
    }
    table = cached;
  }
  if (!options.reverse) return table;
  const flipped = new Uint8Array(1024);
  for (let i = 0; i < 256; i++) flipped.set(table.subarray((255 - i) * 4, (255 - i) * 4 + 4), i * 4);
  return flipped;
}

/** The table index of a value: `[min, max]` spread over the 256 entries, values outside clamped. */
export function colourIndex(value: number, min: number, max: number): number {
  const t = max > min ? (value - min) / (max - min) : 0.5;
  return Math.min(255, Math.max(0, Math.floor(t * 256)));
}

/** RGBA pixels of values through a colour table; invalid pixels stay transparent (all zero). */
export function colourise(values: Float64Array, valid: Uint8Array, range: readonly [number, number], table: Uint8Array): Uint8ClampedArray {
  const rgba = new Uint8ClampedArray(values.length * 4);
  const [min, max] = range;
  const scale = max > min ? 256 / (max - min) : 0;
  for (let k = 0; k < values.length; k++) {
    if (valid[k] === 0) continue;
    const t = scale === 0 ? 128 : (values[k] - min) * scale;
    const idx = t < 0 ? 0 : t >= 255 ? 255 : t | 0;
    rgba[k * 4] = table[idx * 4];
    rgba[k * 4 + 1] = table[idx * 4 + 1];
    rgba[k * 4 + 2] = table[idx * 4 + 2];
    rgba[k * 4 + 3] = table[idx * 4 + 3];
  }
  return rgba;
}
