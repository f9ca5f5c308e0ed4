/** `zarr geozarr info`: the Datasets and Multiscale Datasets of a hierarchy, with CRS, extent and levels. */
import { crsLabel, describeMultiscales, effectiveGeoreference, findMultiscales, validateHierarchy } from "@zarr/geozarr";
import { type JsonObject, stringifyJson } from "@zarr/spec";
import type { CliIO } from "../../cli-io.js";
import { printable } from "../../printable.js";
import { readLimits } from "../../read-limits.js";
import { expectPositionals, parseCommandArgs, USAGE } from "../../usage.js";
import { fmt, loadForReading } from "./shared.js";

/** Runs `zarr geozarr info STORE [PATH]`. */
export async function infoCommand(args: string[], io: CliIO): Promise<void> {
  const { values, positionals } = parseCommandArgs("geozarr", args, { json: { type: "boolean" } });
  if (values.help) {
    await io.write(`${USAGE.geozarr}\n`);
    return;
  }
  expectPositionals("geozarr", positionals, 1, 2);
  const h = await loadForReading(positionals[0], positionals[1], values.header, readLimits("geozarr", values));
  const report = validateHierarchy(h);
  const multiscales = findMultiscales(h).map((p) => describeMultiscales(h, p));
  const datasets = report.datasets
    .filter((p) => !multiscales.some((m) => m.path === p || m.levels.some((l) => l.path === p)))
    .map((p) => {
      const g = effectiveGeoreference(h, p);
      const arrays = h.children(p).filter((c) => c.kind === "array" && (c.shape?.length ?? 0) >= 2);
      return { path: p, crs: g.crs, dimensions: g.dimensions, transform: g.transform, shape: g.shape, bbox: g.bbox, variables: arrays.map((a) => a.name) };
    });
  if (values.json) {
    await io.write(`${stringifyJson({ multiscales, datasets, validation: { valid: report.valid, counts: report.counts } } as unknown as JsonObject, 2)}\n`);
    return;
  }
  const lines: string[] = [];
  for (const ms of multiscales) {
    lines.push(`Multiscale Dataset ${ms.path || "/"}`);
    lines.push(`  crs:          ${ms.crs === undefined ? "(none)" : `${crsLabel(ms.crs)} from ${ms.crs.source} on ${ms.crs.from || "/"}`}`);
    lines.push(`  dimensions:   ${ms.dimensions === undefined ? "(unknown)" : `[${ms.dimensions.join(", ")}]`}`);
    if (ms.bbox !== undefined) lines.push(`  bbox:         [${ms.bbox.map(fmt).join(", ")}]`);
    if (ms.resamplingMethod !== undefined) lines.push(`  resampling:   ${ms.resamplingMethod}`);
    lines.push(`  levels:       ${ms.levels.length}`);
    for (const l of ms.levels) {
      const res = l.resolution === undefined ? "?" : `${fmt(l.resolution[0])}×${fmt(l.resolution[1])}`;
      const shape = l.shape === undefined ? "?" : `${l.shape[0]}×${l.shape[1]}`;
      const from = l.derivedFrom === undefined ? "" : ` from ${l.derivedFrom} ×${fmt(l.scale[0])}`;
      const method = l.resamplingMethod === undefined || l.derivedFrom === undefined ? "" : ` (${l.resamplingMethod})`;
      lines.push(`    ${l.asset.padEnd(10)} ${shape.padEnd(12)} res ${res.padEnd(12)}${from}${method}  ${l.kind === "missing" ? "MISSING" : `${l.variables.length} variable(s): ${l.variables.join(", ")}`}`);
    }
  }
  for (const d of datasets) {
    lines.push(`Dataset ${d.path || "/"}`);
    lines.push(`  crs:          ${d.crs === undefined ? "(none)" : `${crsLabel(d.crs)} from ${d.crs.source}`}`);
    lines.push(`  dimensions:   ${d.dimensions === undefined ? "(unknown)" : `[${d.dimensions.join(", ")}]`}`);
    if (d.transform !== undefined) lines.push(`  transform:    [${d.transform.map(fmt).join(", ")}]`);
    if (d.shape !== undefined) lines.push(`  shape:        ${d.shape[0]}×${d.shape[1]}`);
    lines.push(`  variables:    ${d.variables.join(", ") || "(none)"}`);
  }
  if (multiscales.length === 0 && datasets.length === 0) lines.push("No GeoZarr Dataset or Multiscale Dataset here.");
  lines.push(`validation:     ${report.valid ? "valid" : "NOT valid"} (${report.counts.error} error(s), ${report.counts.warning} warning(s)); run "zarr geozarr validate" for details`);
  await io.write(`${lines.map(printable).join("\n")}\n`);
}

