/** `zarr geozarr pyramid`: builds a multiscale pyramid of a Dataset into another store. */

import { normalizePath } from "@zarr/core";
import { buildPyramid, loadHierarchy, type PyramidOptions, pyramidJob, v2Writer } from "@zarr/geozarr";
import type { CliIO } from "../../cli-io.js";
import { interruptible } from "../../interrupt.js";
import { removeStaleTempFiles } from "../../interrupted-put.js";
import { PART_OPTIONS, parseRegions, partMode, runPartMode } from "../../parts-option.js";
import { printable } from "../../printable.js";
import { terminalProgress } from "../../progress.js";
import { readLimits } from "../../read-limits.js";
import { cliRegistry } from "../../registry.js";
import { openStoreArg } from "../../store-arg.js";
import { expectPositionals, integerOption, parseCommandArgs, USAGE, UsageError } from "../../usage.js";
import { withWorkerPool, workerCount } from "../../workers.js";
import { parseConventionsOption, parseFactors, parseGdalCrs, parseMinSize, parsePair, parseResamplingOption, parseZarrFormat } from "./shared.js";

/** Runs `zarr geozarr pyramid SRC DST`. */
export async function pyramidCommand(args: string[], io: CliIO): Promise<void> {
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
    "no-gdal-crs": { type: "boolean" },
    conventions: { type: "string" },
    "zarr-format": { type: "string" },
    overwrite: { type: "boolean" },
    concurrency: { type: "string", short: "j" },
    workers: { type: "string" },
    resume: { type: "boolean" },
    regions: { type: "string" },
    ...PART_OPTIONS,
  });
  if (values.help) {
    await io.write(`${USAGE.geozarr}\n`);
    return;
  }
  const limits = readLimits("geozarr", values);
  expectPositionals("geozarr", positionals, 2, 2);
  const format = parseZarrFormat(values["zarr-format"]);
  const parts = partMode("geozarr", values);
  if (parts !== undefined && values.overwrite) {
    throw new UsageError("--overwrite cannot run in parts (deleting the old pyramid is not a part's work): remove it first", "geozarr");
  }
  if (parts === undefined && (values.resume || values.regions !== undefined)) {
    throw new UsageError("--resume and --regions apply to a part (--part i/n, --parts n, --finalize)", "geozarr");
  }
  const regions = values.regions === undefined ? undefined : parseRegions("geozarr", values.regions);
  const registry = cliRegistry();
  const options: PyramidOptions = { registry, overwrite: values.overwrite === true };
  const conventions = parseConventionsOption(values.conventions);
  if (conventions !== undefined) options.conventions = conventions;
  // Zarr v2 is what GDAL 3.6 reads: with it, GDAL's _CRS is written unless --no-gdal-crs.
  if (format === 2) {
    if (values.shards !== undefined) throw new UsageError("--shards needs Zarr v3: Zarr v2 has no sharding", "geozarr");
    options.writer = v2Writer({ registry });
  }
  const gdalCrs = parseGdalCrs(values["gdal-crs"], values["no-gdal-crs"]);
  if (gdalCrs !== undefined) options.gdalCrs = gdalCrs;
  if (values.factors !== undefined) options.factors = parseFactors(values.factors);
  if (values.resampling !== undefined) options.resampling = parseResamplingOption(values.resampling);
  if (values["min-size"] !== undefined) options.minSize = parseMinSize(values["min-size"]);
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
  const src = await openStoreArg(positionals[0], { writable: false, headers: values.header, limits });
  const dst = await openStoreArg(positionals[1], { writable: true, headers: values.header, limits });
  const h = await loadHierarchy(src, { path: normalizePath(values["src-path"] ?? ""), registry });
  const poolSize = workerCount("geozarr", values.workers);
  if (parts !== undefined) {
    const { overwrite: _, ...jobOptions } = options;
    await interruptible(async (signal) => {
      // Temporary files left by parts killed earlier (never a running writer's: see the store).
      await removeStaleTempFiles(dst, options.targetPath ?? "");
      await withWorkerPool(poolSize, async (workers) => {
        // Every process of the job names it the same way: by the arguments as given.
        const job = pyramidJob(h, dst, { ...jobOptions, workers, name: `${positionals[0]} -> ${positionals[1]}` });
        await runPartMode(job, parts, { resume: values.resume === true, concurrency: options.concurrency ?? 4, signal, regions }, io);
      });
    });
    return;
  }
  const progress = terminalProgress("chunks");
  options.onProgress = (p) => progress?.update(p.done, p.total, undefined, `level ${p.level} ${p.variable}`);
  await interruptible(async (signal) => {
    const result = await withWorkerPool(poolSize, (workers) => buildPyramid(h, dst, { ...options, signal, workers }));
    progress?.end();
    const lines = [`wrote ${result.levels.length} level(s) of ${result.variables.length} variable(s) to ${positionals[1]}${result.path === "" ? "" : `/${result.path}`} (Zarr v${result.format}):`];
    for (const l of result.levels) {
      lines.push(`  ${l.asset.padEnd(6)} ${l.shape[0]}×${l.shape[1]}  ×${l.cumulative}  chunks ${l.chunkShape.join("×")}${l.shardShape ? ` shards ${l.shardShape.join("×")}` : ""}`);
    }
    lines.push(`  resampling: ${result.variables.map((v) => `${v.name}=${v.resampling}${v.nodata === undefined ? "" : ` (nodata ${v.nodata})`}`).join(", ")}`);
    await io.write(`${lines.map(printable).join("\n")}\n`);
  });
}

