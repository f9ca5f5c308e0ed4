/**
 * What the `zarr geozarr` subcommands share: loading a hierarchy with the CLI's registry,
 * the options pyramid and from-geotiff both take, number formatting and Ctrl-C handling.
 */

import { normalizePath } from "@zarr/core";
import { CONVENTIONS_VERSIONS, type ConventionsVersion, type GeoHierarchy, loadHierarchy } from "@zarr/geozarr";
import type { ReadLimits } from "../../read-limits.js";
import { cliRegistry } from "../../registry.js";
import { openStoreArg } from "../../store-arg.js";
import { UsageError } from "../../usage.js";

/** Opens a store read-only (`headers`: `--header` values; `limits`: the read limits) and loads the hierarchy under `path` with the CLI's registry (every codec, Zarr v2 too). */
export async function loadForReading(storeArg: string, path: string | undefined, headers: readonly string[] | undefined, limits: ReadLimits): Promise<GeoHierarchy> {
  const store = await openStoreArg(storeArg, { writable: false, headers, limits });
  return loadHierarchy(store, { path: normalizePath(path ?? ""), registry: cliRegistry() });
}

/** A number as people read it: integers whole, others to six decimals. */
export function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Math.round(n * 1e6) / 1e6);
}

/** `N` or `ROWS,COLS`, positive integers. */
export function parsePair(text: string, what: string): [number, number] {
  const parts = text.split(",").map((s) => Number(s.trim()));
  if (parts.length === 1) parts.push(parts[0]);
  if (parts.length !== 2 || parts.some((n) => !Number.isSafeInteger(n) || n < 1)) throw new UsageError(`${what} is N or ROWS,COLS (positive integers), not "${text}"`, "geozarr");
  return [parts[0], parts[1]];
}

/** `--factors`: one factor or a list per level, integers ≥ 2. */
export function parseFactors(text: string): number | number[] {
  const fs = text.split(",").map((s) => Number(s.trim()));
  if (fs.some((f) => !Number.isSafeInteger(f) || f < 2)) throw new UsageError(`--factors is a list of integers ≥ 2, e.g. 2,3,2, not "${text}"`, "geozarr");
  return fs.length === 1 ? fs[0] : fs;
}

/** `--resampling`: one method, or `NAME=METHOD,...` per variable (band). */
export function parseResamplingOption(text: string): string | Record<string, string> {
  if (!text.includes("=")) return text;
  const map: Record<string, string> = {};
  for (const part of text.split(",")) {
    const [k, v] = part.split("=");
    if (k === undefined || v === undefined || k.trim() === "" || v.trim() === "") throw new UsageError(`--resampling is METHOD or VAR=METHOD,..., not "${text}"`, "geozarr");
    map[k.trim()] = v.trim();
  }
  return map;
}

/** `--zarr-format`: 2 or 3 (default 3). */
export function parseZarrFormat(text: string | undefined): 2 | 3 {
  const format = text ?? "3";
  if (format !== "2" && format !== "3") throw new UsageError(`--zarr-format is 2 or 3, not "${format}"`, "geozarr");
  return format === "2" ? 2 : 3;
}

/**
 * `--gdal-crs` / `--no-gdal-crs`: whether to write GDAL's `_CRS` on every variable.
 * Undefined (neither given) leaves the library's default: on for Zarr v2, off for v3.
 */
export function parseGdalCrs(on: boolean | undefined, off: boolean | undefined): boolean | undefined {
  if (on === true && off === true) throw new UsageError("--gdal-crs and --no-gdal-crs contradict each other", "geozarr");
  return on === true ? true : off === true ? false : undefined;
}

/**
 * `--conventions`: the declaration form to write, `v1` (the mini-spec's; `undefined` when
 * the option is absent, which the library reads as v1) or `v0.1`.
 */
export function parseConventionsOption(text: string | undefined): ConventionsVersion | undefined {
  if (text === undefined) return undefined;
  if (!(CONVENTIONS_VERSIONS as readonly string[]).includes(text)) throw new UsageError(`--conventions is ${CONVENTIONS_VERSIONS.join(" or ")}, not "${text}"`, "geozarr");
  return text as ConventionsVersion;
}

/** `--min-size`: a positive integer. */
export function parseMinSize(text: string): number {
  const m = Number(text);
  if (!Number.isSafeInteger(m) || m < 1) throw new UsageError(`--min-size is a positive integer, not "${text}"`, "geozarr");
  return m;
}
