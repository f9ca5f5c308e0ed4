/**
 * The viewer page: opens a GeoZarr Multiscale Dataset over HTTP, lists its metadata and
 * validation findings, and renders one variable to a canvas, choosing the level that
 * matches the zoom. State is mirrored on `window.__viewer` and `document.body.dataset`
 * so tests (and curious users) can follow it.
 */
import { gzip, zlib } from "@zarr/codec-gzip";
import { zstdLazy } from "@zarr/codec-zstd/lazy";
import { createRegistry } from "@zarr/core";
import {
  chooseLevel,
  crsLabel,
  describeMultiscales,
  findMultiscales,
  type GeoHierarchy,
  loadHierarchy,
  type MultiscaleDataset,
  type MultiscaleLevel,
  readBbox,
  validateHierarchy,
} from "@zarr/geozarr";
import { HttpStore } from "@zarr/store-http";
import { renderView, valueRange, type View, viewBbox } from "./render.js";

interface ViewerState {
  url: string;
  dataset?: MultiscaleDataset;
  variable?: string;
  level?: string;
  /** "auto": the level follows the zoom. */
  levelChoice: string;
  view?: View;
  stretch?: { min: number; max: number };
  renders: number;
  error?: string;
}

declare global {
  interface Window {
    __viewer: ViewerState;
  }
}

const registry = createRegistry([gzip, zlib, zstdLazy]);
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const state: ViewerState = { url: "", levelChoice: "auto", renders: 0 };
window.__viewer = state;
let hierarchy: GeoHierarchy | undefined;
let renderToken = 0;

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

function levelFor(ms: MultiscaleDataset, view: View): MultiscaleLevel {
  if (state.levelChoice !== "auto") {
    const l = ms.levels.find((x) => x.asset === state.levelChoice);
    if (l !== undefined) return l;
  }
  return chooseLevel(ms.levels, { resolution: view.resolution, mode: "finer" });
}

async function render(): Promise<void> {
  const ms = state.dataset;
  const view = state.view;
  if (hierarchy === undefined || ms === undefined || view === undefined || state.variable === undefined) return;
  const token = ++renderToken;
  const level = levelFor(ms, view);
  const canvas = $<HTMLCanvasElement>("map");
  const ctx = canvas.getContext("2d") as CanvasRenderingContext2D;
  const image = ctx.createImageData(view.width, view.height);
  setStatus(`reading level ${level.asset}…`);
  document.body.dataset.state = "loading";
  try {
    const node = hierarchy.node(level.kind === "array" ? level.path : `${level.path}/${state.variable}`);
    const names = node?.dimensionNames ?? [];
    const select: Record<string, number> = {};
    for (const n of names) if (n !== null && n !== ms.dimensions?.[0] && n !== ms.dimensions?.[1]) select[n] = 0;
    const data = await readBbox(hierarchy, { path: ms.path, variable: state.variable, level: level.asset, bbox: viewBbox(view), select, registry });
    if (token !== renderToken) return;
    const y = data.dimensionNames.indexOf(ms.dimensions?.[0] ?? "");
    const x = data.dimensionNames.indexOf(ms.dimensions?.[1] ?? "");
    const shape: [number, number] = [data.shape[Math.max(y, 0)], data.shape[x < 0 ? 1 : x]];
    renderView({ values: data.data as ArrayLike<number>, shape, transform: data.transform }, view, state.stretch ?? { min: 0, max: 1 }, image.data);
    ctx.putImageData(image, 0, 0);
    state.level = level.asset;
    state.renders++;
    $<HTMLSelectElement>("level").value = state.levelChoice;
    document.querySelectorAll<HTMLElement>("tr[data-level]").forEach((tr) => {
      tr.classList.toggle("current", tr.dataset.level === level.asset);
    });
    setStatus(`level ${level.asset} · ${fmt(view.resolution)} units/px · ${data.shape.join("×")} values read`);
    document.body.dataset.level = level.asset;
    document.body.dataset.renders = String(state.renders);
    document.body.dataset.state = "ready";
  } catch (error) {
    if ((error as { code?: string }).code === "OUT_OF_BOUNDS") {
      // The view has left the data: an empty canvas, not an error.
      ctx.putImageData(image, 0, 0);
      state.level = level.asset;
      state.renders++;
      setStatus(`level ${level.asset} · outside the data`);
      document.body.dataset.renders = String(state.renders);
      document.body.dataset.state = "ready";
      return;
    }
    state.error = (error as Error).message;
    setStatus(`error: ${state.error}`);
    document.body.dataset.state = "error";
  }
}

/** The stretch comes from the coarsest level, so every zoom uses the same grey scale. */
async function computeStretch(ms: MultiscaleDataset, variable: string): Promise<{ min: number; max: number }> {
  const coarsest = ms.levels.filter((l) => l.resolution !== undefined).sort((a, b) => (b.resolution as number[])[0] - (a.resolution as number[])[0])[0];
  if (hierarchy === undefined || coarsest?.extent === undefined) return { min: 0, max: 1 };
  const data = await readBbox(hierarchy, { path: ms.path, variable, level: coarsest.asset, bbox: coarsest.extent, registry });
  return valueRange(data.data as ArrayLike<number>);
}

function zoom(factor: number, at?: [number, number]): void {
  const v = state.view;
  if (v === undefined) return;
  const anchor = at ?? v.center;
  v.center = [anchor[0] + (v.center[0] - anchor[0]) * factor, anchor[1] + (v.center[1] - anchor[1]) * factor];
  v.resolution *= factor;
  void render();
}

async function open(url: string, path: string): Promise<void> {
  state.url = url;
  setStatus(`opening ${url}…`);
  document.body.dataset.state = "loading";
  try {
    const store = new HttpStore(url.endsWith("/") ? url : `${url}/`);
    hierarchy = await loadHierarchy(store, { path });
    showFindings(hierarchy);
    const msPath = findMultiscales(hierarchy)[0];
    if (msPath === undefined) throw new Error("no multiscales group in this store");
    const ms = describeMultiscales(hierarchy, msPath);
    state.dataset = ms;
    showMetadata(ms);
    const variables = [...new Set(ms.levels.flatMap((l) => l.variables))];
    const varSelect = $<HTMLSelectElement>("variable");
    varSelect.innerHTML = variables.map((v) => `<option>${escapeHtml(v)}</option>`).join("");
    state.variable = variables[0];
    const levelSelect = $<HTMLSelectElement>("level");
    levelSelect.innerHTML = `<option value="auto">auto</option>${ms.levels.map((l) => `<option>${escapeHtml(l.asset)}</option>`).join("")}`;
    const canvas = $<HTMLCanvasElement>("map");
    const base = ms.levels.find((l) => l.extent !== undefined);
    if (base?.extent === undefined) throw new Error("no level has a transform and shape");
    const [x0, y0, x1, y1] = base.extent;
    state.view = {
      center: [(x0 + x1) / 2, (y0 + y1) / 2],
      resolution: Math.max((x1 - x0) / canvas.width, (y1 - y0) / canvas.height),
      width: canvas.width,
      height: canvas.height,
    };
    if (state.variable !== undefined) state.stretch = await computeStretch(ms, state.variable);
    await render();
  } catch (error) {
    state.error = (error as Error).message;
    setStatus(`error: ${state.error}`);
    document.body.dataset.state = "error";
  }
}

function wire(): void {
  const params = new URLSearchParams(location.search);
  const url = params.get("url") ?? new URL("data/", location.href).href;
  $<HTMLInputElement>("url").value = url;
  $("open").addEventListener("click", () => void open($<HTMLInputElement>("url").value, ""));
  $("zoom-in").addEventListener("click", () => zoom(0.5));
  $("zoom-out").addEventListener("click", () => zoom(2));
  $<HTMLSelectElement>("level").addEventListener("change", (e) => {
    state.levelChoice = (e.target as HTMLSelectElement).value;
    void render();
  });
  $<HTMLSelectElement>("variable").addEventListener("change", async (e) => {
    state.variable = (e.target as HTMLSelectElement).value;
    if (state.dataset !== undefined) state.stretch = await computeStretch(state.dataset, state.variable);
    void render();
  });
  const canvas = $<HTMLCanvasElement>("map");
  const toCrs = (ev: MouseEvent): [number, number] | undefined => {
    const v = state.view;
    if (v === undefined) return undefined;
    const r = canvas.getBoundingClientRect();
    const [x0, , , y1] = viewBbox(v);
    return [x0 + (ev.clientX - r.left) * v.resolution, y1 - (ev.clientY - r.top) * v.resolution];
  };
  canvas.addEventListener("wheel", (ev) => {
    ev.preventDefault();
    zoom(ev.deltaY < 0 ? 0.5 : 2, toCrs(ev));
  });
  let drag: { x: number; y: number; center: [number, number] } | undefined;
  canvas.addEventListener("mousedown", (ev) => {
    if (state.view !== undefined) drag = { x: ev.clientX, y: ev.clientY, center: [...state.view.center] };
  });
  window.addEventListener("mouseup", (ev) => {
    const v = state.view;
    if (drag === undefined || v === undefined) return;
    const dx = ev.clientX - drag.x;
    const dy = ev.clientY - drag.y;
    if (dx !== 0 || dy !== 0) {
      v.center = [drag.center[0] - dx * v.resolution, drag.center[1] + dy * v.resolution];
      void render();
    }
    drag = undefined;
  });
  void open(url, params.get("path") ?? "");
}

wire();
