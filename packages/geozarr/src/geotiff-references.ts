/**
 * GeoTIFF references: a tiled (or evenly striped) GeoTIFF described as a kerchunk
 * reference set (JSON version 1), so its tiles read as the chunks of a Zarr v2 array
 * without copying a byte. Each TIFF compression maps to the numcodecs codec that decodes
 * its tile bytes exactly; compressions and predictors without one are refused, never
 * referenced wrongly. The group carries the GeoZarr `proj:`/`spatial:` attributes that
 * `importGeoTiff` writes, and inline `y`/`x` coordinate arrays.
 */
import { type JsonObject, type JsonValue, throwIfAborted, ZarrError } from "@zarr/spec";
import type { GeoTIFFImage } from "geotiff";
import type { Affine } from "./affine.js";
import { isAxisAligned } from "./affine.js";
import type { Registration } from "./attributes.js";
import { type ConventionsOption, datasetAttributes } from "./builders.js";
import type { Crs } from "./crs.js";
import { describeImage, fail, fillJson, fitsInteger, type GeoTiffInfo, getImage, openTiff, readingTiff, tagValue } from "./geotiff-image.js";
import { gdalCrsAttribute } from "./pyramid.js";

/** A kerchunk reference: inline text (`base64:` for bytes) or `[url, offset, length]`. */
export type GeoTiffReference = string | [string, number, number];

/** A kerchunk reference set, JSON version 1 (`{{u}}` in a URL is the `templates` entry `u`). */
export interface GeoTiffReferenceSet {
  version: 1;
  templates: { u: string };
  refs: Record<string, GeoTiffReference>;
}

/** Options of {@link geoTiffReferences}. */
export interface GeoTiffReferencesOptions extends ConventionsOption {
  /**
   * The URL every tile reference points to. Default: the source path as an absolute
   * `file://` URL (required when the source is a buffer).
   */
  target?: string;
  /** Name of the data array (default `"data"`). */
  name?: string;
  /** Which image (IFD) of the file (default 0, the full resolution). */
  image?: number;
  /** The CRS to write when the GeoKeys name none (user-defined CRS) or to override them. */
  crs?: Crs;
  /** Also write GDAL's `_CRS` attribute on the data array (default true: GDAL reads it in Zarr v2). */
  gdalCrs?: boolean;
  signal?: AbortSignal;
}

/** What {@link geoTiffReferences} made. */
export interface GeoTiffReferencesResult {
  references: GeoTiffReferenceSet;
  /** Name of the data array. */
  array: string;
  /** Dimension names of the data array: `[y, x]`, `[y, x, band]` (pixel-interleaved) or `[band, y, x]` (band-separate). */
  dimensions: string[];
  shape: number[];
  chunks: number[];
  /** The numcodecs dtype (`"<i2"`, `"|u1"`, `">f4"`). */
  dtype: string;
  /** The numcodecs compressor (null: uncompressed tiles). */
  compressor: JsonObject | null;
  /** Chunks referenced, and chunks the TIFF leaves out (sparse tiles, read as the fill value). */
  referenced: number;
  sparse: number;
  layout: { tiled: boolean; blockShape: [number, number]; compression: number; planar: "pixel" | "band" };
  crs: Crs;
  transform: Affine;
  registration: Registration;
  nodata?: number;
  warnings: string[];
}

/** TIFF Compression values (TIFF 6.0 and the libtiff registry) → the numcodecs compressor that decodes a tile's bytes. */
const COMPRESSORS: Record<number, JsonObject | null> = {
  1: null,
  // Adobe deflate and the old PKZIP code both store a zlib stream (RFC 1950) per tile.
  8: { id: "zlib", level: 6 },
  32946: { id: "zlib", level: 6 },
  // libtiff writes one zstd frame per tile.
  50000: { id: "zstd", level: 9 },
  // TIFF 6.0 LZW: imagecodecs' numcodecs codec (@zarr/codec-lzw here; zarr-python with imagecodecs).
  5: { id: "imagecodecs_lzw" },
};

const COMPRESSION_NAMES: Record<number, string> = {
  2: "CCITT RLE",
  3: "CCITT Group 3",
  4: "CCITT Group 4",
  6: "old-style JPEG",
  7: "JPEG",
  32773: "PackBits",
  34887: "LERC",
  34925: "LZMA",
  50001: "WebP",
  50002: "JPEG XL",
};

const PREDICTOR_NAMES: Record<number, string> = { 2: "horizontal differencing", 3: "floating-point" };

/** The numcodecs dtype string of a Zarr data type in a TIFF of the given byte order. */
function numpyDtype(dataType: string, littleEndian: boolean): string {
  const m = /^(u?int|float)(\d+)$/.exec(dataType) as RegExpExecArray;
  const kind = m[1] === "float" ? "f" : m[1] === "int" ? "i" : "u";
  const size = Number(m[2]) / 8;
  return `${size === 1 ? "|" : littleEndian ? "<" : ">"}${kind}${size}`;
}

function bytesPerSample(dataType: string): number {
  return Number(/(\d+)$/.exec(dataType)?.[1]) / 8;
}

/** A TIFF offset or byte count array as safe integers (BigTIFF stores them as 64-bit values). */
function safeIntegers(values: unknown, what: string, file: string): number[] {
  const raw = values === undefined ? undefined : Array.from(values as ArrayLike<number | bigint>);
  if (raw === undefined) fail("INVALID_ARGUMENT", file, `has no ${what}`);
  return raw.map((v, i) => {
    const n = Number(v);
    if (!Number.isSafeInteger(n) || n < 0) fail("INVALID_ARGUMENT", file, `${what}[${i}] is ${String(v)}, not a byte position`);
    return n;
  });
}

/** Base64 of the bytes of a typed array (an inline coordinate chunk; little-endian on every platform Node and browsers run on). */
function inlineBytes(values: Float64Array | Int32Array): string {
  const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  let binary = "";
  // Chunks of 32 Ki bytes keep String.fromCharCode's argument list short.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `base64:${btoa(binary)}`;
}

/** Coordinates along one axis: pixel centres (nodes for node registration), or indices on a rotated grid. */
function coordinates(info: GeoTiffInfo, axis: "y" | "x"): Float64Array {
  const t = info.transform;
  const n = axis === "y" ? info.height : info.width;
  const o = info.registration === "node" ? 0 : 0.5;
  const [scale, origin] = axis === "y" ? [t[4], t[5]] : [t[0], t[2]];
  const values = new Float64Array(n);
  const aligned = isAxisAligned(t);
  for (let i = 0; i < n; i++) values[i] = aligned ? scale * (i + o) + origin : i;
  return values;
}

function zarray(shape: number[], chunks: number[], dtype: string, compressor: JsonObject | null, fill: JsonValue | null): string {
  return JSON.stringify({ zarr_format: 2, shape, chunks, dtype, compressor, fill_value: fill, filters: null, order: "C", dimension_separator: "." });
}

/** Checks what the TIFF's blocks hold against what a Zarr chunk must hold, and returns the chunk layout. */
async function blockLayout(image: GeoTIFFImage, info: GeoTiffInfo, file: string) {
  const dir = image.getFileDirectory();
  const compression = info.compression;
  if (!Object.hasOwn(COMPRESSORS, compression)) {
    const name = COMPRESSION_NAMES[compression] ?? `compression ${compression}`;
    fail("UNSUPPORTED", file, `its tiles are ${name}-compressed, which no Zarr codec decodes; referenceable: uncompressed, DEFLATE, ZSTD, LZW (rewrite it, e.g. gdal_translate -co COMPRESS=DEFLATE)`);
  }
  const predictor = Number((await tagValue(image, "Predictor")) ?? 1);
  if (predictor !== 1) {
    fail("UNSUPPORTED", file, `uses predictor ${predictor} (${PREDICTOR_NAMES[predictor] ?? "unknown"}), which works per row within a tile and has no Zarr codec; rewrite it with -co PREDICTOR=1`);
  }
  const planarValue = Number(dir.getValue("PlanarConfiguration") ?? 1);
  if (planarValue !== 1 && planarValue !== 2) fail("INVALID_ARGUMENT", file, `has PlanarConfiguration ${planarValue} (1 or 2 expected)`);
  const planar: "pixel" | "band" = planarValue === 2 && info.bands > 1 ? "band" : "pixel";
  const [bh, bw] = info.blockShape;
  if (!info.tiled && info.height % bh !== 0 && bh < info.height) {
    fail("UNSUPPORTED", file, `is organised in strips of ${bh} rows that do not divide its ${info.height} rows (the last strip is short, no Zarr chunk); rewrite it tiled (gdal_translate -co TILED=YES)`);
  }
  const rows = Math.ceil(info.height / bh);
  const cols = Math.ceil(info.width / bw);
  const planes = planar === "band" ? info.bands : 1;
  const offsets = safeIntegers(await tagValue(image, info.tiled ? "TileOffsets" : "StripOffsets"), info.tiled ? "TileOffsets" : "StripOffsets", file);
  const counts = safeIntegers(await tagValue(image, info.tiled ? "TileByteCounts" : "StripByteCounts"), info.tiled ? "TileByteCounts" : "StripByteCounts", file);
  const blocks = rows * cols * planes;
  if (offsets.length !== blocks || counts.length !== blocks) {
    fail("INVALID_ARGUMENT", file, `has ${offsets.length} block offsets and ${counts.length} byte counts for ${blocks} ${info.tiled ? "tiles" : "strips"}`);
  }
  const samplesPerBlock = planar === "band" ? 1 : info.bands;
  const rawBytes = bh * bw * samplesPerBlock * bytesPerSample(info.dataType);
  return { planar, rows, cols, planes, offsets, counts, rawBytes, compressor: COMPRESSORS[compression] };
}

/**
 * Describes a tiled GeoTIFF as a kerchunk reference set (JSON version 1) of a Zarr v2
 * group: one array (`data` by default) whose chunks are the TIFF's tiles, referenced by
 * byte range, plus inline `y`/`x` (and `band`) coordinates, with the GeoZarr `proj:`/`spatial:`
 * attributes on the group. The chunk shape is the tile shape and the array shape the
 * image size (TIFF edge tiles are whole tiles, as Zarr's edge chunks are). One band gives
 * a `[y, x]` array; several give `[y, x, band]` (pixel-interleaved, chunks of all bands)
 * or `[band, y, x]` (band-separate, one chunk per band per tile). Sparse tiles (offset or
 * byte count 0) are left out and read as the fill value (the GDAL nodata value, else 0; with
 * neither nodata nor sparse tiles the fill value is null, so xarray masks nothing).
 * Strips are referenced as `[rowsPerStrip, width]` chunks when they divide the height.
 *
 * TIFF compressions map to numcodecs compressors: none, DEFLATE → `zlib`, ZSTD → `zstd`,
 * LZW → `imagecodecs_lzw` (read with `@zarr/codec-lzw`, or by zarr-python with imagecodecs).
 * Others (JPEG, WebP, LERC, ...) and predictors 2 and 3 are refused with `UNSUPPORTED`.
 *
 * @example
 * ```ts
 * import { geoTiffReferences } from "@zarr/geozarr/geotiff";
 * const { references } = await geoTiffReferences("scene.tif", { target: "https://example.com/scene.tif" });
 * await writeFile("scene.json", JSON.stringify(references));
 * ```
 */
export async function geoTiffReferences(source: ArrayBuffer | Uint8Array | string, options: GeoTiffReferencesOptions = {}): Promise<GeoTiffReferencesResult> {
  const signal = options.signal;
  throwIfAborted(signal);
  const file = typeof source === "string" ? source : "(buffer)";
  const target = options.target ?? (typeof source === "string" ? await fileUrl(source) : undefined);
  if (target === undefined || target === "") throw new ZarrError("INVALID_ARGUMENT", "geoTiffReferences: give options.target, the URL the references point to, for a TIFF in a buffer");
  const name = options.name ?? "data";
  if (!/^[A-Za-z_][\w.-]*$/.test(name) || name === "x" || name === "y" || name === "band") {
    throw new ZarrError("INVALID_ARGUMENT", `geoTiffReferences: ${JSON.stringify(name)} is not a usable array name (letters, digits, _ . -; not x, y or band)`);
  }
  const tiff = await openTiff(source, signal);
  try {
    const image = await getImage(tiff, options.image ?? 0, file);
    const info = await describeImage(image, file);
    const crs: Crs | undefined = options.crs ?? (info.code === undefined ? undefined : { code: info.code });
    if (crs === undefined) fail("UNSUPPORTED", file, "its GeoKeys name no EPSG CRS (a user-defined CRS): pass a CRS");
    const layout = await readingTiff(file, () => blockLayout(image, info, file));
    throwIfAborted(signal);
    const warnings: string[] = [];
    let nodata = info.nodata;
    if (nodata !== undefined && !info.dataType.startsWith("float") && !fitsInteger(info.dataType, nodata)) {
      warnings.push(`the nodata value ${nodata} is not a ${info.dataType} value: ignored`);
      nodata = undefined;
    }
    if (!isAxisAligned(info.transform)) warnings.push("the grid is rotated: the y/x coordinate arrays hold pixel indices; use spatial:transform");
    const [bh, bw] = info.blockShape;
    const { planar, rows, cols, planes } = layout;
    const multi = info.bands > 1;
    const dimensions = !multi ? ["y", "x"] : planar === "band" ? ["band", "y", "x"] : ["y", "x", "band"];
    const shape = !multi ? [info.height, info.width] : planar === "band" ? [info.bands, info.height, info.width] : [info.height, info.width, info.bands];
    const chunks = !multi ? [bh, bw] : planar === "band" ? [1, bh, bw] : [bh, bw, info.bands];
    const dtype = numpyDtype(info.dataType, image.littleEndian);

    const refs: Record<string, GeoTiffReference> = {};
    const spatial = { dimensions: ["y", "x"] as const, transform: info.transform, shape: [info.height, info.width] as const, registration: info.registration };
    refs[".zgroup"] = JSON.stringify({ zarr_format: 2 });
    refs[".zattrs"] = JSON.stringify(datasetAttributes({ crs, spatial, conventions: options.conventions }));
    const attributes: JsonObject = { _ARRAY_DIMENSIONS: dimensions };
    if (nodata !== undefined) attributes._FillValue = fillJson(nodata);
    if (!multi) {
      if (info.descriptions[0] !== undefined) attributes.long_name = info.descriptions[0];
      if (info.scales[0] !== undefined) attributes.scale_factor = info.scales[0];
      if (info.offsets[0] !== undefined) attributes.add_offset = info.offsets[0];
    }
    if (options.gdalCrs ?? true) attributes._CRS = gdalCrsAttribute(crs);
    for (const axis of ["y", "x"] as const) {
      const values = coordinates(info, axis);
      refs[`${axis}/.zarray`] = zarray([values.length], [values.length], "<f8", null, "NaN");
      refs[`${axis}/.zattrs`] = JSON.stringify({ _ARRAY_DIMENSIONS: [axis] });
      refs[`${axis}/0`] = inlineBytes(values);
    }
    if (multi) {
      // The band numbers as GDAL counts them: the band dimension's coordinate, which a GeoZarr Dataset needs.
      refs["band/.zarray"] = zarray([info.bands], [info.bands], "<i4", null, null);
      refs["band/.zattrs"] = JSON.stringify({ _ARRAY_DIMENSIONS: ["band"] });
      refs["band/0"] = inlineBytes(Int32Array.from({ length: info.bands }, (_, b) => b + 1));
    }

    const fileSize = typeof source === "string" ? await sizeOf(source) : source.byteLength;
    const chunkRefs: Record<string, GeoTiffReference> = {};
    let referenced = 0;
    let sparse = 0;
    for (let p = 0; p < planes; p++) {
      for (let r = 0; r < rows; r++) {
        for (let c = 0; c < cols; c++) {
          const k = (p * rows + r) * cols + c;
          const key = !multi ? `${r}.${c}` : planar === "band" ? `${p}.${r}.${c}` : `${r}.${c}.0`;
          const offset = layout.offsets[k];
          const length = layout.counts[k];
          if (offset === 0 || length === 0) {
            sparse++;
            continue;
          }
          if (offset + length > fileSize) fail("INVALID_ARGUMENT", file, `block ${k} (chunk ${name}/${key}) ends at byte ${offset + length}, past the end of the file (${fileSize} bytes)`);
          if (layout.compressor === null && length !== layout.rawBytes) {
            fail("INVALID_ARGUMENT", file, `uncompressed block ${k} (chunk ${name}/${key}) holds ${length} bytes, not the ${layout.rawBytes} of a whole ${bh}×${bw} block`);
          }
          chunkRefs[`${name}/${key}`] = ["{{u}}", offset, length];
          referenced++;
        }
      }
    }
    // The fill value is what GDAL reads where no tile is stored: the nodata value, else 0. Without
    // nodata and without sparse tiles there is no such place, and null keeps readers such as
    // xarray (which masks a Zarr v2 fill_value) from taking the value 0 for missing data.
    const fill = nodata !== undefined ? fillJson(nodata) : sparse > 0 ? 0 : null;
    refs[`${name}/.zarray`] = zarray(shape, chunks, dtype, layout.compressor, fill);
    refs[`${name}/.zattrs`] = JSON.stringify(attributes);
    Object.assign(refs, chunkRefs);
    const result: GeoTiffReferencesResult = {
      references: { version: 1, templates: { u: target }, refs },
      array: name,
      dimensions,
      shape,
      chunks,
      dtype,
      compressor: layout.compressor,
      referenced,
      sparse,
      layout: { tiled: info.tiled, blockShape: info.blockShape, compression: info.compression, planar },
      crs,
      transform: info.transform,
      registration: info.registration,
      warnings,
    };
    if (nodata !== undefined) result.nodata = nodata;
    return result;
  } finally {
    await tiff.close();
  }
}

/** The absolute `file://` URL of a local path. */
async function fileUrl(path: string): Promise<string> {
  const [{ pathToFileURL }, { resolve }] = await Promise.all([import("node:url"), import("node:path")]);
  return pathToFileURL(resolve(path)).href;
}

async function sizeOf(path: string): Promise<number> {
  const { stat } = await import("node:fs/promises");
  return (await stat(path)).size;
}
