/** A legend for a coloured layer: the colour bar, its minimum and maximum, and the units. */
import { type Colormap, colormapTable } from "./colormap.js";

/** Options of {@link createLegend}. */
export interface LegendOptions {
  colormap?: Colormap;
  reverse?: boolean;
  range: readonly [number, number];
  /** Shown after the values, e.g. `"K"`. */
  units?: string;
  /** A title above the bar, e.g. the variable's name. */
  title?: string;
  /** The document to create elements in (default the global `document`). */
  document?: Document;
}

/**
 * A CSS `linear-gradient` (left = lowest value) through 32 stops of a colour map: the
 * colour bar as a background, no canvas needed.
 */
export function legendGradient(colormap: Colormap = "viridis", options: { reverse?: boolean } = {}): string {
  const table = colormapTable(colormap, options);
  const stops: string[] = [];
  for (let s = 0; s <= 32; s++) {
    const i = Math.min(255, Math.round((s / 32) * 255));
    stops.push(`rgb(${table[i * 4]}, ${table[i * 4 + 1]}, ${table[i * 4 + 2]}) ${((s / 32) * 100).toFixed(2)}%`);
  }
  return `linear-gradient(to right, ${stops.join(", ")})`;
}

function formatValue(v: number): string {
  return Math.abs(v) >= 1e5 || (Math.abs(v) < 1e-3 && v !== 0) ? v.toExponential(2) : String(Number(v.toPrecision(4)));
}

/**
 * A legend element: `title`, the colour bar, and the range's ends with units. Classes
 * `zarr-legend`, `zarr-legend-title`, `zarr-legend-bar`, `zarr-legend-min`, `zarr-legend-max`
 * for styling; put it in a MapLibre control container or anywhere on the page.
 *
 * @example
 * ```ts
 * document.body.append(createLegend({ colormap: "viridis", range: source.range, units: source.units, title: "t2m" }));
 * ```
 */
export function createLegend(options: LegendOptions): HTMLElement {
  const doc = options.document ?? document;
  const root = doc.createElement("div");
  root.className = "zarr-legend";
  if (options.title !== undefined) {
    const title = doc.createElement("div");
    title.className = "zarr-legend-title";
    title.textContent = options.title;
    root.append(title);
  }
  const bar = doc.createElement("div");
  bar.className = "zarr-legend-bar";
  bar.style.background = legendGradient(options.colormap, { reverse: options.reverse });
  bar.style.height = "12px";
  bar.style.minWidth = "160px";
  const labels = doc.createElement("div");
  labels.style.display = "flex";
  labels.style.justifyContent = "space-between";
  const units = options.units === undefined ? "" : ` ${options.units}`;
  const min = doc.createElement("span");
  min.className = "zarr-legend-min";
  min.textContent = `${formatValue(options.range[0])}${units}`;
  const max = doc.createElement("span");
  max.className = "zarr-legend-max";
  max.textContent = `${formatValue(options.range[1])}${units}`;
  labels.append(min, max);
  root.append(bar, labels);
  return root;
}
