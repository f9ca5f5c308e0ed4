/**
 * `zarr refs from-geotiff FILE.tif OUT.json`: writes a kerchunk reference set (JSON
 * version 1) over a tiled GeoTIFF's tiles, readable as `reference+file://OUT.json`.
 */
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { GeoTiffReferencesOptions } from "@zarr/geozarr/geotiff";
import { type JsonObject, stringifyJson, ZarrError } from "@zarr/spec";
import type { CliIO } from "../cli-io.js";
import { printable } from "../printable.js";
import { expectPositionals, parseCommandArgs, USAGE, UsageError } from "../usage.js";
import { fmt, parseConventionsOption } from "./geozarr/shared.js";

/** TIFF Compression values as `gdalinfo` names them (for the summary). */
const COMPRESSION = { 1: "none", 5: "LZW", 8: "DEFLATE", 32946: "DEFLATE", 50000: "ZSTD" } as Record<number, string>;

/** Runs `zarr refs`. */
export async function refsCommand(args: string[], io: CliIO): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === "--help" || sub === "-h") {
    await io.write(`${USAGE.refs}\n`);
    return;
  }
  if (sub === undefined) throw new UsageError("missing subcommand (from-geotiff)", "refs");
  if (sub !== "from-geotiff") throw new UsageError(`unknown subcommand ${JSON.stringify(sub)} (from-geotiff)`, "refs");
  const { values, positionals } = parseCommandArgs("refs", rest, {
    "target-url": { type: "string" },
    name: { type: "string" },
    image: { type: "string" },
    crs: { type: "string" },
    "no-gdal-crs": { type: "boolean" },
    conventions: { type: "string" },
    overwrite: { type: "boolean" },
    json: { type: "boolean" },
  });
  if (values.help) {
    await io.write(`${USAGE.refs}\n`);
    return;
  }
  expectPositionals("refs", positionals, 2, 2);
  const [tif, out] = positionals;
  const options: GeoTiffReferencesOptions = {};
  if (values["target-url"] !== undefined) {
    if (!/^[A-Za-z][A-Za-z0-9+.-]*:\/\/\S+$/.test(values["target-url"])) throw new UsageError(`--target-url is a URL (https://…, s3://…, file:///…), not "${values["target-url"]}"`, "refs");
    options.target = values["target-url"];
  }
  if (values.name !== undefined) options.name = values.name;
  if (values.image !== undefined) {
    const n = Number(values.image);
    if (!Number.isSafeInteger(n) || n < 0) throw new UsageError(`--image is an image number (0 is the full resolution), not "${values.image}"`, "refs");
    options.image = n;
  }
  if (values.crs !== undefined) {
    if (!/^[A-Za-z]+:\S+$/.test(values.crs)) throw new UsageError(`--crs is AUTHORITY:CODE (e.g. EPSG:2056), not "${values.crs}"`, "refs");
    options.crs = { code: values.crs.toUpperCase() };
  }
  if (values["no-gdal-crs"] === true) options.gdalCrs = false;
  const conventions = parseConventionsOption(values.conventions);
  if (conventions !== undefined) options.conventions = conventions;
  if (out !== "-" && existsSync(out) && values.overwrite !== true) {
    throw new ZarrError("NODE_EXISTS", `${out} already exists (pass --overwrite to replace it)`);
  }
  // Loaded on demand: the TIFF parser is only needed by this command.
  const { geoTiffReferences } = await import("@zarr/geozarr/geotiff");
  const result = await geoTiffReferences(tif, options);
  const text = JSON.stringify(result.references);
  if (out === "-") {
    await io.write(`${text}\n`);
    return;
  }
  try {
    await writeFile(out, text);
  } catch (error) {
    throw new ZarrError("STORE_FAILED", `cannot write ${out} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, { cause: error });
  }
  if (values.json) {
    const { references: _, ...summary } = result;
    await io.write(`${stringifyJson({ ...summary, output: out, target: result.references.templates.u } as unknown as JsonObject, 2)}\n`);
    return;
  }
  const lines = [
    `wrote references to ${result.referenced} chunk(s) of ${tif} to ${out}:`,
    `  array:      ${result.array} [${result.dimensions.join(", ")}] ${result.shape.join("×")} ${result.dtype}, chunks ${result.chunks.join("×")} (TIFF ${result.layout.tiled ? "tiles" : "strips"} ${result.layout.blockShape.join("×")}, ${result.layout.planar === "band" ? "band-separate" : "pixel-interleaved"})`,
    `  codec:      ${result.compressor === null ? "none" : String(result.compressor.id)} (TIFF ${COMPRESSION[result.layout.compression] ?? result.layout.compression})${result.sparse > 0 ? `, ${result.sparse} sparse chunk(s) read as the fill value` : ""}`,
    `  crs:        ${result.crs.code ?? "(given)"}${result.nodata === undefined ? "" : `, nodata ${result.nodata}`}`,
    `  transform:  [${result.transform.map(fmt).join(", ")}]${result.registration === "node" ? " (node registration)" : ""}`,
    `  target:     ${result.references.templates.u}`,
  ];
  for (const w of result.warnings) lines.push(`warning: ${w}`);
  lines.push(`read it as reference+${out.includes("://") ? out : pathToFileURL(resolve(out)).href}`);
  await io.write(`${lines.map(printable).join("\n")}\n`);
}

