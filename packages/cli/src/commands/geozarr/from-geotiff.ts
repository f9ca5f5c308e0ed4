/** `zarr geozarr from-geotiff`: imports a GeoTIFF as a GeoZarr Dataset (optionally with a pyramid). */

import { normalizePath } from "@zarr/core";
import { v2Writer } from "@zarr/geozarr";
import type { GeoTiffImportOptions } from "@zarr/geozarr/geotiff";
import { type JsonObject, stringifyJson } from "@zarr/spec";
import type { CliIO } from "../../cli-io.js";
import { interruptible } from "../../interrupt.js";
import { printable } from "../../printable.js";
import { terminalProgress } from "../../progress.js";
import { readLimits } from "../../read-limits.js";
import { cliRegistry } from "../../registry.js";
import { openStoreArg } from "../../store-arg.js";
import { expectPositionals, parseCommandArgs, USAGE, UsageError } from "../../usage.js";
import { withWorkerPool, workerCount } from "../../workers.js";
import { fmt, parseConventionsOption, parseFactors, parseGdalCrs, parseMinSize, parsePair, parseResamplingOption, parseZarrFormat } from "./shared.js";

/** Runs `zarr geozarr from-geotiff TIFF DST [PATH]`. */
export async function fromGeoTiffCommand(args: string[], io: CliIO): Promise<void> {
  const { values, positionals } = parseCommandArgs("geozarr", args, {
    chunks: { type: "string" },
    pyramid: { type: "boolean" },
    factors: { type: "string" },
    resampling: { type: "string" },
    "min-size": { type: "string" },
    "zarr-format": { type: "string" },
    "gdal-crs": { type: "boolean" },
    "no-gdal-crs": { type: "boolean" },
    conventions: { type: "string" },
    crs: { type: "string" },
    overwrite: { type: "boolean" },
    json: { type: "boolean" },
    workers: { type: "string" },
  });
  if (values.help) {
    await io.write(`${USAGE.geozarr}\n`);
    return;
  }
  const limits = readLimits("geozarr", values);
  expectPositionals("geozarr", positionals, 2, 3);
  const format = parseZarrFormat(values["zarr-format"]);
  const registry = cliRegistry();
  const options: GeoTiffImportOptions = { registry, overwrite: values.overwrite === true };
  const conventions = parseConventionsOption(values.conventions);
  if (conventions !== undefined) options.conventions = conventions;
  // Zarr v2 (what GDAL 3.6 reads) gets GDAL's _CRS on every band unless --no-gdal-crs.
  if (format === 2) options.writer = v2Writer({ registry });
  const gdalCrs = parseGdalCrs(values["gdal-crs"], values["no-gdal-crs"]);
  if (gdalCrs !== undefined) options.gdalCrs = gdalCrs;
  if (values.chunks !== undefined) options.chunkShape = parsePair(values.chunks, "--chunks");
  if (values.crs !== undefined) {
    if (!/^[A-Za-z]+:\S+$/.test(values.crs)) throw new UsageError(`--crs is AUTHORITY:CODE (e.g. EPSG:2056), not "${values.crs}"`, "geozarr");
    options.crs = { code: values.crs.toUpperCase() };
  }
  const pyramidFlags = (["factors", "resampling", "min-size"] as const).filter((k) => values[k] !== undefined);
  if (values.pyramid !== true && pyramidFlags.length > 0) throw new UsageError(`--${pyramidFlags[0]} needs --pyramid`, "geozarr");
  if (values.pyramid === true) {
    const pyramid: NonNullable<Exclude<GeoTiffImportOptions["pyramid"], boolean>> = {};
    if (values.factors !== undefined) pyramid.factors = parseFactors(values.factors);
    if (values.resampling !== undefined) pyramid.resampling = parseResamplingOption(values.resampling);
    if (values["min-size"] !== undefined) pyramid.minSize = parseMinSize(values["min-size"]);
    options.pyramid = pyramid;
  }
  // Loaded on demand: the geotiff decoder is only needed by this subcommand.
  const { importGeoTiff } = await import("@zarr/geozarr/geotiff");
  const dst = await openStoreArg(positionals[1], { writable: true, headers: values.header, limits });
  const poolSize = workerCount("geozarr", values.workers);
  const progress = terminalProgress("chunks");
  options.onProgress = (p) => progress?.update(p.done, p.total, undefined, p.phase === "read" ? "reading" : "pyramid");
  await interruptible(async (signal) => {
    const result = await withWorkerPool(poolSize, (workers) =>
      importGeoTiff(positionals[0], dst, normalizePath(positionals[2] ?? ""), { ...options, signal, workers }),
    );
    progress?.end();
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
    await io.write(`${lines.map(printable).join("\n")}\n`);
  });
}
