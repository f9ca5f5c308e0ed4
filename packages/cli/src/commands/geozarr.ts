/**
 * `zarr geozarr validate|info|pyramid|migrate|from-geotiff`: the GeoZarr conventions from
 * the command line, on top of @zarr/geozarr.
 */
import {
  buildPyramid,
  crsLabel,
  describeMultiscales,
  effectiveGeoreference,
  type Finding,
  findMultiscales,
  type GeoHierarchy,
  listRules,
  loadHierarchy,
  migrate,
  type PyramidOptions,
  type Severity,
  v2Writer,
  validateHierarchy,
} from "@zarr/geozarr";
import type { GeoTiffImportOptions } from "@zarr/geozarr/geotiff";
import { normalizePath } from "@zarr/core";
import { type JsonObject, stringifyJson, ZarrError } from "@zarr/spec";
import type { CliIO } from "../cli-io.js";
import { cliRegistry } from "../registry.js";
import { openStoreArg } from "../store-arg.js";
import { expectPositionals, integerOption, parseCommandArgs, USAGE, UsageError } from "../usage.js";

const SUBCOMMANDS = ["validate", "info", "pyramid", "migrate", "from-geotiff"] as const;

/** Runs `zarr geozarr`. */
export async function geozarrCommand(args: string[], io: CliIO): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === "--help" || sub === "-h") {
    if (sub === undefined) throw new UsageError("missing subcommand (validate, info, pyramid, migrate or from-geotiff)", "geozarr");
    await io.write(`${USAGE.geozarr}\n`);
    return;
  }
  switch (sub as (typeof SUBCOMMANDS)[number]) {
    case "validate":
      return validateCommand(rest, io);
    case "info":
      return infoCommand(rest, io);
    case "pyramid":
      return pyramidCommand(rest, io);
    case "migrate":
      return migrateCommand(rest, io);
    case "from-geotiff":
      return fromGeoTiffCommand(rest, io);
    default:
      throw new UsageError(`unknown subcommand ${JSON.stringify(sub)} (validate, info, pyramid, migrate or from-geotiff)`, "geozarr");
  }
}

async function load(storeArg: string, path: string | undefined): Promise<GeoHierarchy> {
  const store = await openStoreArg(storeArg, { writable: false });
  // The CLI's registry knows every codec and, through it, Zarr v2 hierarchies.
  return loadHierarchy(store, { path: normalizePath(path ?? ""), registry: cliRegistry() });
}

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

function findingLine(f: Finding): string {
  const where = `${f.path || "/"}${f.pointer === "" ? "" : ` ${f.pointer}`}`;
  return `${f.severity.padEnd(7)} ${f.rule}  ${where}\n        ${f.message}`;
}

async function validateCommand(args: string[], io: CliIO): Promise<void> {
  const { values, positionals } = parseCommandArgs("geozarr", args, {
    json: { type: "boolean" },
    rules: { type: "boolean" },
    "min-severity": { type: "string" },
    tolerance: { type: "string" },
  });
  if (values.help) {
    await io.write(`${USAGE.geozarr}\n`);
    return;
  }
  if (values.rules) {
    const rules = listRules();
    if (values.json) await io.write(`${stringifyJson(rules as unknown as JsonObject[], 2)}\n`);
    else await io.write(`${rules.map((r) => `${r.severity.padEnd(7)} ${r.id.padEnd(36)} ${r.summary}`).join("\n")}\n`);
    return;
  }
  expectPositionals("geozarr", positionals, 1, 2);
  const min = (values["min-severity"] ?? "info") as Severity;
  if (!(min in SEVERITY_ORDER)) throw new UsageError(`--min-severity is error, warning or info, not "${min}"`, "geozarr");
  const tolerance = values.tolerance === undefined ? undefined : Number(values.tolerance);
  if (tolerance !== undefined && !(tolerance > 0)) throw new UsageError(`--tolerance is a positive number, not "${values.tolerance}"`, "geozarr");
  const h = await load(positionals[0], positionals[1]);
  const report = validateHierarchy(h, { tolerance });
  const shown = report.findings.filter((f) => SEVERITY_ORDER[f.severity] <= SEVERITY_ORDER[min]);
  if (values.json) {
    await io.write(`${stringifyJson({ ...report, findings: shown } as unknown as JsonObject, 2)}\n`);
  } else {
    const byRule = new Map<string, number>();
    for (const f of shown) byRule.set(`${f.severity} ${f.rule}`, (byRule.get(`${f.severity} ${f.rule}`) ?? 0) + 1);
    const lines = shown.map(findingLine);
    lines.push("");
    if (byRule.size > 0) {
      lines.push("by rule:");
      for (const [k, n] of [...byRule].sort()) lines.push(`  ${String(n).padStart(5)}  ${k}`);
    }
    lines.push(
      `${report.valid ? "valid" : "NOT valid"}: ${report.counts.error} error(s), ${report.counts.warning} warning(s), ${report.counts.info} info; ` +
        `${report.datasets.length} Dataset(s), ${report.multiscales.length} Multiscale Dataset(s)`,
    );
    await io.write(`${lines.join("\n")}\n`);
  }
  if (!report.valid) throw new ZarrError("METADATA_INVALID", `${report.counts.error} GeoZarr error(s) found`);
}

function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Math.round(n * 1e6) / 1e6);
}

async function infoCommand(args: string[], io: CliIO): Promise<void> {
  const { values, positionals } = parseCommandArgs("geozarr", args, { json: { type: "boolean" } });
  if (values.help) {
    await io.write(`${USAGE.geozarr}\n`);
    return;
  }
  expectPositionals("geozarr", positionals, 1, 2);
  const h = await load(positionals[0], positionals[1]);
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
  await io.write(`${lines.join("\n")}\n`);
}

function parsePair(text: string, what: string): [number, number] {
  const parts = text.split(",").map((s) => Number(s.trim()));
  if (parts.length === 1) parts.push(parts[0]);
  if (parts.length !== 2 || parts.some((n) => !Number.isSafeInteger(n) || n < 1)) throw new UsageError(`${what} is N or ROWS,COLS (positive integers), not "${text}"`, "geozarr");
  return [parts[0], parts[1]];
}

async function pyramidCommand(args: string[], io: CliIO): Promise<void> {
  const { values, positionals } = parseCommandArgs("geozarr", args, {
    factors: { type: "string" },
    resampling: { type: "string" },
    "min-size": { type: "string" },
    chunks: { type: "string" },
    shards: { type: "string" },
    nodata: { type: "string" },
    variables: { type: "string" },
    "src-path": { type: "string" },
    "dst-path": { type: "string" },
    "gdal-crs": { type: "boolean" },
    overwrite: { type: "boolean" },
    concurrency: { type: "string", short: "j" },
  });
  if (values.help) {
    await io.write(`${USAGE.geozarr}\n`);
    return;
  }
  expectPositionals("geozarr", positionals, 2, 2);
  const options: PyramidOptions = { registry: cliRegistry(), overwrite: values.overwrite === true, gdalCrs: values["gdal-crs"] === true };
  if (values.factors !== undefined) {
    const fs = values.factors.split(",").map((s) => Number(s.trim()));
    if (fs.some((f) => !Number.isSafeInteger(f) || f < 2)) throw new UsageError(`--factors is a list of integers ≥ 2, e.g. 2,3,2, not "${values.factors}"`, "geozarr");
    options.factors = fs.length === 1 ? fs[0] : fs;
  }
  if (values.resampling !== undefined) {
    if (values.resampling.includes("=")) {
      const map: Record<string, string> = {};
      for (const part of values.resampling.split(",")) {
        const [k, v] = part.split("=");
        if (k === undefined || v === undefined || k === "" || v === "") throw new UsageError(`--resampling is METHOD or VAR=METHOD,..., not "${values.resampling}"`, "geozarr");
        map[k.trim()] = v.trim();
      }
      options.resampling = map;
    } else options.resampling = values.resampling;
  }
  if (values["min-size"] !== undefined) {
    const m = Number(values["min-size"]);
    if (!Number.isSafeInteger(m) || m < 1) throw new UsageError(`--min-size is a positive integer, not "${values["min-size"]}"`, "geozarr");
    options.minSize = m;
  }
  if (values.chunks !== undefined) options.chunkShape = parsePair(values.chunks, "--chunks");
  if (values.shards !== undefined) options.shardShape = parsePair(values.shards, "--shards");
  if (values.nodata !== undefined) {
    const n = values.nodata === "fill_value" ? "fill_value" : Number(values.nodata);
    if (n !== "fill_value" && Number.isNaN(n)) throw new UsageError(`--nodata is a number or fill_value, not "${values.nodata}"`, "geozarr");
    options.nodata = n;
  }
  if (values.variables !== undefined) options.variables = values.variables.split(",").map((s) => s.trim());
  if (values["dst-path"] !== undefined) options.targetPath = normalizePath(values["dst-path"]);
  if (values.concurrency !== undefined) options.concurrency = integerOption("geozarr", "--concurrency", values.concurrency, 1, 1024, 4);
  const src = await openStoreArg(positionals[0], { writable: false });
  const dst = await openStoreArg(positionals[1], { writable: true });
  const h = await loadHierarchy(src, { path: normalizePath(values["src-path"] ?? ""), registry: options.registry });
  const progress = process.stderr.isTTY ? bar() : undefined;
  options.onProgress = (p) => progress?.(p.done, p.total, `level ${p.level} ${p.variable}`);
  const controller = new AbortController();
  const stop = () => controller.abort(new Error("interrupted"));
  process.once("SIGINT", stop);
  options.signal = controller.signal;
  try {
    const result = await buildPyramid(h, dst, options);
    if (progress !== undefined) process.stderr.write("\n");
    const lines = [`wrote ${result.levels.length} level(s) of ${result.variables.length} variable(s) to ${positionals[1]}${result.path === "" ? "" : `/${result.path}`}:`];
    for (const l of result.levels) {
      lines.push(`  ${l.asset.padEnd(6)} ${l.shape[0]}×${l.shape[1]}  ×${l.cumulative}  chunks ${l.chunkShape.join("×")}${l.shardShape ? ` shards ${l.shardShape.join("×")}` : ""}`);
    }
    lines.push(`  resampling: ${result.variables.map((v) => `${v.name}=${v.resampling}${v.nodata === undefined ? "" : ` (nodata ${v.nodata})`}`).join(", ")}`);
    await io.write(`${lines.join("\n")}\n`);
  } finally {
    process.removeListener("SIGINT", stop);
  }
}

/** A progress bar on standard error: `[#####-----]  50% 120/240 chunks  level 2 b04`. */
function bar(): (done: number, total: number, label: string) => void {
  let last = 0;
  return (done, total, label) => {
    const now = Date.now();
    if (now - last < 100 && done !== total) return;
    last = now;
    const f = total > 0 ? done / total : 1;
    const filled = Math.round(f * 24);
    process.stderr.write(`\r[${"#".repeat(filled)}${"-".repeat(24 - filled)}] ${`${Math.floor(f * 100)}%`.padStart(4)} ${done}/${total} chunks  ${label}\x1b[K`);
  };
}

async function migrateCommand(args: string[], io: CliIO): Promise<void> {
  const { values, positionals } = parseCommandArgs("geozarr", args, {
    "dry-run": { type: "boolean", short: "n" },
    "remove-legacy": { type: "boolean" },
    json: { type: "boolean" },
  });
  if (values.help) {
    await io.write(`${USAGE.geozarr}\n`);
    return;
  }
  expectPositionals("geozarr", positionals, 1, 2);
  const dryRun = values["dry-run"] === true;
  const store = await openStoreArg(positionals[0], { writable: !dryRun });
  const h = await loadHierarchy(store, { path: normalizePath(positionals[1] ?? ""), registry: cliRegistry() });
  const report = await migrate(h, { dryRun, removeLegacy: values["remove-legacy"] === true, registry: cliRegistry() });
  if (values.json) {
    await io.write(`${stringifyJson(report as unknown as JsonObject, 2)}\n`);
    return;
  }
  const lines = [`${dryRun ? "would change" : "changed"} ${report.changes.length} node(s):`];
  for (const c of report.changes) {
    lines.push(`  ${c.path || "/"}  [${c.source}] ${c.description}`);
    lines.push(`      set ${Object.keys(c.set).join(", ")}${c.remove.length > 0 ? `; remove ${c.remove.join(", ")}` : ""}`);
  }
  for (const n of report.notes) lines.push(`note: ${n}`);
  const v = report.validation;
  lines.push(`after migration: ${v.valid ? "valid" : "NOT valid"} (${v.counts.error} error(s), ${v.counts.warning} warning(s))`);
  await io.write(`${lines.join("\n")}\n`);
}

async function fromGeoTiffCommand(args: string[], io: CliIO): Promise<void> {
  const { values, positionals } = parseCommandArgs("geozarr", args, {
    chunks: { type: "string" },
    pyramid: { type: "boolean" },
    factors: { type: "string" },
    resampling: { type: "string" },
    "min-size": { type: "string" },
    "zarr-format": { type: "string" },
    crs: { type: "string" },
    overwrite: { type: "boolean" },
    json: { type: "boolean" },
  });
  if (values.help) {
    await io.write(`${USAGE.geozarr}\n`);
    return;
  }
  expectPositionals("geozarr", positionals, 2, 3);
  const format = values["zarr-format"] ?? "3";
  if (format !== "2" && format !== "3") throw new UsageError(`--zarr-format is 2 or 3, not "${format}"`, "geozarr");
  const registry = cliRegistry();
  const options: GeoTiffImportOptions = { registry, overwrite: values.overwrite === true };
  if (format === "2") options.writer = v2Writer({ registry });
  if (values.chunks !== undefined) options.chunkShape = parsePair(values.chunks, "--chunks");
  if (values.crs !== undefined) {
    if (!/^[A-Za-z]+:\S+$/.test(values.crs)) throw new UsageError(`--crs is AUTHORITY:CODE (e.g. EPSG:2056), not "${values.crs}"`, "geozarr");
    options.crs = { code: values.crs.toUpperCase() };
  }
  const pyramidFlags = (["factors", "resampling", "min-size"] as const).filter((k) => values[k] !== undefined);
  if (values.pyramid !== true && pyramidFlags.length > 0) throw new UsageError(`--${pyramidFlags[0]} needs --pyramid`, "geozarr");
  if (values.pyramid === true) {
    const pyramid: NonNullable<Exclude<GeoTiffImportOptions["pyramid"], boolean>> = {};
    if (values.factors !== undefined) {
      const fs = values.factors.split(",").map((s) => Number(s.trim()));
      if (fs.some((f) => !Number.isSafeInteger(f) || f < 2)) throw new UsageError(`--factors is a list of integers ≥ 2, e.g. 2,3,2, not "${values.factors}"`, "geozarr");
      pyramid.factors = fs.length === 1 ? fs[0] : fs;
    }
    if (values.resampling !== undefined) {
      if (values.resampling.includes("=")) {
        const map: Record<string, string> = {};
        for (const part of values.resampling.split(",")) {
          const [k, v] = part.split("=");
          if (k === undefined || v === undefined || k.trim() === "" || v.trim() === "") throw new UsageError(`--resampling is METHOD or BAND=METHOD,..., not "${values.resampling}"`, "geozarr");
          map[k.trim()] = v.trim();
        }
        pyramid.resampling = map;
      } else pyramid.resampling = values.resampling;
    }
    if (values["min-size"] !== undefined) {
      const m = Number(values["min-size"]);
      if (!Number.isSafeInteger(m) || m < 1) throw new UsageError(`--min-size is a positive integer, not "${values["min-size"]}"`, "geozarr");
      pyramid.minSize = m;
    }
    options.pyramid = pyramid;
  }
  // Loaded on demand: the geotiff decoder is only needed by this subcommand.
  const { importGeoTiff } = await import("@zarr/geozarr/geotiff");
  const dst = await openStoreArg(positionals[1], { writable: true });
  const progress = process.stderr.isTTY ? bar() : undefined;
  options.onProgress = (p) => progress?.(p.done, p.total, p.phase === "read" ? "reading" : "pyramid");
  const controller = new AbortController();
  const stop = () => controller.abort(new Error("interrupted"));
  process.once("SIGINT", stop);
  options.signal = controller.signal;
  try {
    const result = await importGeoTiff(positionals[0], dst, normalizePath(positionals[2] ?? ""), options);
    if (progress !== undefined) process.stderr.write("\n");
    if (values.json) {
      await io.write(`${stringifyJson(result as unknown as JsonObject, 2)}\n`);
      return;
    }
    const where = `${positionals[1]}${result.path === "" ? "" : `/${result.path}`}`;
    const lines = [
      `imported ${result.variables.length} band(s) of ${positionals[0]} to ${where} (Zarr v${result.format}${result.pyramid === undefined ? "" : ", Multiscale Dataset"}):`,
      `  bands:      ${result.variables.join(", ")}`,
      `  data type:  ${result.dataType}${result.nodata === undefined ? "" : `, nodata ${result.nodata}`}`,
      `  shape:      ${result.shape[0]}×${result.shape[1]}, chunks ${result.chunkShape.join("×")} (TIFF ${result.layout.tiled ? "tiles" : "strips"} ${result.layout.blockShape.join("×")})`,
      `  crs:        ${result.crs.code ?? "(given)"}`,
      `  transform:  [${result.transform.map(fmt).join(", ")}]${result.registration === "node" ? " (node registration)" : ""}`,
    ];
    if (result.pyramid !== undefined) {
      lines.push(`  levels:     ${result.pyramid.levels.map((l) => `${l.asset} ${l.shape[0]}×${l.shape[1]}`).join(", ")}`);
    }
    for (const w of result.warnings) lines.push(`warning: ${w}`);
    await io.write(`${lines.join("\n")}\n`);
  } finally {
    process.removeListener("SIGINT", stop);
  }
}
