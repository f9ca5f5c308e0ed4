/**
 * The viewer page: opens a GeoZarr Multiscale Dataset over HTTP, lists its metadata and
 * validation findings, and shows one variable on a MapLibre map as raster tiles from
 * @zarr/maplibre (painted in a pool of workers), over an offline coastline basemap, with
 * a legend and variable/time pickers. State is mirrored on `window.__viewer` and
 * `document.body.dataset` so tests (and curious users) can follow it.
 */
import { gzip, zlib } from "@zarr/codec-gzip";
import { zstdLazy } from "@zarr/codec-zstd/lazy";
import { createRegistry } from "@zarr/core";
import { createWorkerPool } from "@zarr/core/workers";
import { crsLabel, describeMultiscales, findMultiscales, type GeoHierarchy, loadHierarchy, type MultiscaleDataset, validateHierarchy } from "@zarr/geozarr";
import { proj4Reprojector } from "@zarr/geozarr/proj4";
import { type Colormap, createLegend, geozarrProtocol, mercatorLat, mercatorLon, openTileSource, type TileSource } from "@zarr/maplibre";
import { HttpStore } from "@zarr/store-http";
import * as maplibregl from "maplibre-gl";
import proj4 from "proj4";

interface ViewerState {
  url: string;
  dataset?: MultiscaleDataset;
  variable?: string;
  select: Record<string, number>;
  colormap: Colormap;
  source?: TileSource;
  layerId?: string;
  error?: string;
  map?: maplibregl.Map;
  /** RGBA of the map canvas at a longitude/latitude (for tests). */
  pixelAt?: (lon: number, lat: number) => number[];
}

declare global {
  interface Window {
    __viewer: ViewerState;
  }
}

const registry = createRegistry([gzip, zlib, zstdLazy]);
const reprojector = proj4Reprojector(proj4);
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const state: ViewerState = { url: "", select: {}, colormap: "viridis" };
window.__viewer = state;
let hierarchy: GeoHierarchy | undefined;
let layers = 0;

// MapLibre's own worker next to this bundle (build.mjs copies it); ours paint the tiles.
maplibregl.setWorkerUrl(new URL("./maplibre-gl-worker.mjs", import.meta.url).href);
const workers = createWorkerPool({ size: 2, createWorker: () => new Worker(new URL("./tile-worker.js", import.meta.url), { type: "module" }) });
const protocol = geozarrProtocol({ workers });
maplibregl.addProtocol("geozarr", protocol);

function setStatus(text: string): void {
  $("status").textContent = text;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c] as string);
}

function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toPrecision(8).replace(/\.?0+$/, "");
}

function showMetadata(ms: MultiscaleDataset): void {
  const rows = ms.levels
    .map(
      (l) =>
        `<tr data-level="${escapeHtml(l.asset)}"><td>${escapeHtml(l.asset)}</td><td>${l.shape ? `${l.shape[0]}×${l.shape[1]}` : "?"}</td>` +
        `<td>${l.resolution ? fmt(l.resolution[0]) : "?"}</td><td>${escapeHtml(l.derivedFrom ?? "")}</td><td>${escapeHtml(l.resamplingMethod ?? "")}</td></tr>`,
    )
    .join("");
  $("metadata").innerHTML =
    `<h2>Multiscale Dataset ${escapeHtml(ms.path || "/")}</h2>` +
    `<dl><dt>CRS</dt><dd id="crs">${ms.crs ? escapeHtml(crsLabel(ms.crs)) : "(none)"}</dd>` +
    `<dt>Dimensions</dt><dd>${ms.dimensions ? escapeHtml(ms.dimensions.join(", ")) : "?"}</dd>` +
    `<dt>BBox</dt><dd>${ms.bbox ? ms.bbox.map(fmt).join(", ") : "?"}</dd></dl>` +
    `<table><thead><tr><th>level</th><th>shape</th><th>res</th><th>from</th><th>resampling</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function showFindings(h: GeoHierarchy): void {
  const report = validateHierarchy(h);
  const items = report.findings
    .map((f) => `<li class="${f.severity}"><b>${f.severity}</b> <code>${escapeHtml(f.rule)}</code> ${escapeHtml(f.path || "/")}: ${escapeHtml(f.message)}</li>`)
    .join("");
  $("findings").innerHTML =
    `<h2>Validation: <span id="verdict">${report.valid ? "valid" : "not valid"}</span></h2>` +
    `<p>${report.counts.error} error(s), ${report.counts.warning} warning(s), ${report.counts.info} info</p><ul>${items}</ul>`;
}

/** The basemap: a background and Natural Earth coastlines from a GeoJSON shipped with the page. */
function baseStyle(): maplibregl.StyleSpecification {
  return {
    version: 8,
    sources: { coastlines: { type: "geojson", data: new URL("./coastlines-110m.geojson", import.meta.url).href } },
    layers: [
      { id: "background", type: "background", paint: { "background-color": "#dde6ee" } },
      { id: "coastlines", type: "line", source: "coastlines", paint: { "line-color": "#44546a", "line-width": 1 } },
    ],
  };
}

/** The non-spatial dimensions of the variable, with their lengths, for the pickers. */
function otherDimensions(ms: MultiscaleDataset, variable: string): Array<{ name: string; size: number }> {
  const level = ms.levels.find((l) => l.kind !== "missing");
  const node = hierarchy?.node(level?.kind === "array" ? level.path : `${level?.path}/${variable}`);
  const names = node?.dimensionNames ?? [];
  return names.flatMap((n, d) => (n !== null && !ms.dimensions?.includes(n) ? [{ name: n, size: node?.shape?.[d] ?? 1 }] : []));
}

function showPickers(ms: MultiscaleDataset, variable: string): void {
  const box = $("indices");
  box.innerHTML = "";
  for (const { name, size } of otherDimensions(ms, variable)) {
    const label = document.createElement("label");
    label.textContent = `${name} `;
    const input = document.createElement("input");
    Object.assign(input, { type: "range", min: "0", max: String(size - 1), value: String(state.select[name] ?? 0), id: `index-${name}` });
    input.addEventListener("change", () => {
      state.select[name] = Number(input.value);
      void showLayer();
    });
    label.append(input);
    box.append(label);
  }
}

/** Serves the chosen variable and indices under a new id, so MapLibre's cached tiles of the old choice are not reused. */
async function showLayer(): Promise<void> {
  const map = state.map;
  const ms = state.dataset;
  if (hierarchy === undefined || map === undefined || ms === undefined || state.variable === undefined) return;
  document.body.dataset.state = "loading";
  const source = await openTileSource(hierarchy, { path: ms.path, variable: state.variable, select: state.select, reprojector, registry });
  state.source = source;
  const id = `layer-${++layers}`;
  protocol.set(id, { source, colormap: state.colormap });
  const previous = state.layerId;
  state.layerId = id;
  map.addSource(id, { type: "raster", tiles: [`geozarr://${id}/{z}/{x}/{y}`], tileSize: 256, minzoom: 0, maxzoom: 22 });
  map.addLayer({ id, type: "raster", source: id, paint: { "raster-resampling": "nearest", "raster-fade-duration": 0 } }, "coastlines");
  if (previous !== undefined) {
    map.removeLayer(previous);
    map.removeSource(previous);
    protocol.delete(previous);
  }
  $("legend").replaceChildren(createLegend({ colormap: state.colormap, range: source.range, units: source.units, title: state.variable }));
  document.body.dataset.layer = id;
  map.once("idle", () => {
    document.body.dataset.state = "ready";
    document.body.dataset.painted = String(protocol.painted);
    setStatus(`${state.variable} · zoom ${map.getZoom().toFixed(2)} · ${protocol.painted} tiles painted`);
  });
  map.triggerRepaint();
}

async function open(url: string, path: string): Promise<void> {
  state.url = url;
  setStatus(`opening ${url}…`);
  document.body.dataset.state = "loading";
  try {
    const store = new HttpStore(url.endsWith("/") ? url : `${url}/`);
    hierarchy = await loadHierarchy(store, { path, registry });
    showFindings(hierarchy);
    const msPath = findMultiscales(hierarchy)[0];
    if (msPath === undefined) throw new Error("no multiscales group in this store");
    const ms = describeMultiscales(hierarchy, msPath);
    state.dataset = ms;
    showMetadata(ms);
    const variables = [...new Set(ms.levels.flatMap((l) => l.variables))];
    $<HTMLSelectElement>("variable").innerHTML = variables.map((v) => `<option>${escapeHtml(v)}</option>`).join("");
    state.variable = variables[0];
    state.select = {};
    if (state.variable !== undefined) showPickers(ms, state.variable);
    const source = await openTileSource(hierarchy, { path: msPath, variable: state.variable, reprojector, registry, chunkCache: false });
    const [x0, y0, x1, y1] = source.mercatorExtent;
    const bounds: maplibregl.LngLatBoundsLike = [
      [mercatorLon(x0), mercatorLat(y0)],
      [mercatorLon(x1), mercatorLat(y1)],
    ];
    state.map?.remove();
    const map = new maplibregl.Map({ container: "map", style: baseStyle(), bounds, fitBoundsOptions: { padding: 40 }, canvasContextAttributes: { preserveDrawingBuffer: true }, attributionControl: false });
    state.map = map;
    state.pixelAt = (lon, lat) => {
      const p = map.project([lon, lat]);
      const canvas = map.getCanvas();
      const scale = canvas.width / canvas.clientWidth;
      const copy = document.createElement("canvas");
      copy.width = canvas.width;
      copy.height = canvas.height;
      const ctx = copy.getContext("2d") as CanvasRenderingContext2D;
      ctx.drawImage(canvas, 0, 0);
      return Array.from(ctx.getImageData(Math.floor(p.x * scale), Math.floor(p.y * scale), 1, 1).data);
    };
    await map.once("load");
    await showLayer();
  } catch (error) {
    state.error = (error as Error).message;
    setStatus(`error: ${state.error}`);
    document.body.dataset.state = "error";
  }
}

$("variable").addEventListener("change", () => {
  state.variable = $<HTMLSelectElement>("variable").value;
  state.select = {};
  if (state.dataset !== undefined && state.variable !== undefined) showPickers(state.dataset, state.variable);
  void showLayer();
});
$("colormap").addEventListener("change", () => {
  state.colormap = $<HTMLSelectElement>("colormap").value as Colormap;
  void showLayer();
});
$("open").addEventListener("click", () => void open($<HTMLInputElement>("url").value, ""));

const params = new URLSearchParams(location.search);
const initial = params.get("url") ?? new URL("data/", location.href).href;
$<HTMLInputElement>("url").value = initial;
void open(initial, params.get("path") ?? "");
