/**
 * What GeoTIFF import and GeoTIFF references share: opening a TIFF with the `geotiff`
 * package and reading one image's georeferencing and raster description (size, bands,
 * data type, transform, CRS code, nodata, storage layout), and the band names derived
 * from it. No pixels are read here.
 */
import { validateNodeName } from "@zarr/core";
import { type JsonValue, ZarrError } from "@zarr/spec";
import { fromArrayBuffer, fromFile, type GeoTIFF, type GeoTIFFImage } from "geotiff";
import type { Affine } from "./affine.js";
import { determinant, isAffine } from "./affine.js";
import type { Registration } from "./attributes.js";

/**
 * How band arrays are named: `"band"` (`band_1`, `band_2`, ...), `"description"` (GDAL band
 * descriptions, falling back to `band_N` unless every band has a distinct valid one), or
 * one name per band.
 */
export type BandNaming = "band" | "description" | readonly string[];

/** The georeferencing and raster description of one TIFF image. */
export interface GeoTiffInfo {
  width: number;
  height: number;
  bands: number;
  dataType: string;
  transform: Affine;
  registration: Registration;
  /** `EPSG:nnnn` when the GeoKeys name an EPSG CRS. */
  code?: string;
  nodata?: number;
  tiled: boolean;
  blockShape: [number, number];
  compression: number;
  /** GDAL band descriptions (undefined where none). */
  descriptions: Array<string | undefined>;
  /** GDAL band scale/offset (undefined where none). */
  scales: Array<number | undefined>;
  offsets: Array<number | undefined>;
}

// GeoTIFF keys (GeoTIFF 1.1, section 7) and values this module reads.
const GT_MODEL_TYPE = 1024;
const GT_RASTER_TYPE = 1025;
const GEOGRAPHIC_TYPE = 2048;
const PROJECTED_CS_TYPE = 3072;
const MODEL_TYPE_PROJECTED = 1;
const MODEL_TYPE_GEOGRAPHIC = 2;
const RASTER_PIXEL_IS_POINT = 2;
const USER_DEFINED = 32767;

/** Raster dimensions above this are rejected before anything is allocated (a corrupt header). */
const MAX_SIDE = 2 ** 31 - 1;

/** Throws a ZarrError `GeoTIFF <file>: <problem>`. */
export function fail(code: "INVALID_ARGUMENT" | "UNSUPPORTED", file: string, problem: string): never {
  throw new ZarrError(code, `GeoTIFF ${file}: ${problem}`);
}

/** The Zarr data type of a TIFF sample format and bit depth (undefined: not supported). */
function zarrDataType(format: number, bits: number): string | undefined {
  if (format === 1 && (bits === 8 || bits === 16 || bits === 32)) return `uint${bits}`;
  if (format === 2 && (bits === 8 || bits === 16 || bits === 32)) return `int${bits}`;
  if (format === 3 && (bits === 32 || bits === 64)) return `float${bits}`;
  return undefined;
}

const SAMPLE_FORMAT_NAMES: Record<number, string> = { 1: "unsigned integer", 2: "signed integer", 3: "floating point", 4: "undefined", 5: "complex integer", 6: "complex floating point" };

/** Parses the GeoKeyDirectory's SHORT-valued keys (the ones stored in the directory itself). */
function shortGeoKeys(directory: ArrayLike<number> | undefined): Map<number, number> {
  const keys = new Map<number, number>();
  if (directory === undefined || directory.length < 4) return keys;
  const count = Math.min(directory[3], Math.floor((directory.length - 4) / 4));
  for (let i = 0; i < count; i++) {
    const o = 4 + i * 4;
    // TIFFTagLocation 0: the value is the entry's value offset itself.
    if (directory[o + 1] === 0) keys.set(directory[o], directory[o + 3]);
  }
  return keys;
}

function parseNodata(text: unknown): number | undefined {
  if (typeof text !== "string") return undefined;
  const t = text.replace(/\0+$/, "").trim().toLowerCase();
  if (t === "") return undefined;
  if (t === "nan" || t === "-nan") return Number.NaN;
  if (t === "inf" || t === "+inf" || t === "infinity") return Number.POSITIVE_INFINITY;
  if (t === "-inf" || t === "-infinity") return Number.NEGATIVE_INFINITY;
  const n = Number(t);
  return Number.isNaN(n) ? undefined : n;
}

/** The affine transform from ModelTransformation, or ModelPixelScale + one ModelTiepoint. */
function imageTransform(scale: ArrayLike<number> | undefined, tiepoints: ArrayLike<number> | undefined, matrix: ArrayLike<number> | undefined, file: string): Affine {
  let t: number[] | undefined;
  if (matrix !== undefined && matrix.length >= 16) {
    // Row-major 4×4: x = m0·col + m1·row + m3, y = m4·col + m5·row + m7.
    t = [matrix[0], matrix[1], matrix[3], matrix[4], matrix[5], matrix[7]];
  } else if (scale !== undefined && scale.length >= 2 && tiepoints !== undefined && tiepoints.length >= 6) {
    // Tiepoint (I, J, K) ↦ (X, Y, Z); the raster's rows go down while Y goes up.
    const [i, j, , x, y] = [tiepoints[0], tiepoints[1], tiepoints[2], tiepoints[3], tiepoints[4]];
    t = [scale[0], 0, x - i * scale[0], 0, -scale[1], y + j * scale[1]];
  } else if (tiepoints !== undefined && tiepoints.length > 6) {
    fail("UNSUPPORTED", file, `is georeferenced by ${tiepoints.length / 6} ground control points, not an affine transform (warp it first, e.g. gdalwarp)`);
  } else {
    fail("UNSUPPORTED", file, "has no georeferencing (ModelPixelScale + ModelTiepoint or ModelTransformation)");
  }
  if (!isAffine(t) || determinant(t) === 0) fail("INVALID_ARGUMENT", file, `has a degenerate geotransform [${t.join(", ")}]`);
  return t;
}

/** A tag's value (loading deferred arrays such as TileOffsets), or undefined when the image lacks it. */
export async function tagValue(image: GeoTIFFImage, tag: string): Promise<unknown> {
  const dir = image.getFileDirectory();
  if (!dir.hasTag(tag as never)) return undefined;
  return dir.loadValue(tag as never);
}

/** A tag value as a number array (undefined when it is none). */
export function numbers(v: unknown): number[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === "number") return [v];
  if (typeof (v as ArrayLike<number>).length === "number") return Array.from(v as ArrayLike<number>, Number);
  return undefined;
}

/** Reads the georeferencing and raster description of a TIFF image (no pixel data). */
export function describeImage(image: GeoTIFFImage, file: string): Promise<GeoTiffInfo> {
  return readingTiff(file, () => describeImageUnchecked(image, file));
}

/**
 * Runs `read` (geotiff calls on a possibly corrupt file) and turns what the parser throws
 * on bad bytes (a RangeError past the end, a TypeError on a missing tag) into an
 * `INVALID_ARGUMENT` ZarrError naming the file; ZarrErrors and aborts pass unchanged.
 */
export async function readingTiff<T>(file: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ZarrError || (error as Error)?.name === "AbortError") throw error;
    throw new ZarrError("INVALID_ARGUMENT", `GeoTIFF ${file}: not a readable TIFF (${(error as Error)?.message ?? String(error)})`, { cause: error });
  }
}

async function describeImageUnchecked(image: GeoTIFFImage, file: string): Promise<GeoTiffInfo> {
  const width = image.getWidth();
  const height = image.getHeight();
  if (!Number.isSafeInteger(width) || !Number.isSafeInteger(height) || width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE) {
    fail("INVALID_ARGUMENT", file, `has an implausible image size ${width}×${height}`);
  }
  const bands = image.getSamplesPerPixel();
  if (!Number.isSafeInteger(bands) || bands < 1 || bands > 65535) fail("INVALID_ARGUMENT", file, `has an implausible number of samples per pixel (${bands})`);
  let dataType: string | undefined;
  for (let s = 0; s < bands; s++) {
    const format = image.getSampleFormat(s) ?? 1;
    const bits = image.getBitsPerSample(s);
    const dt = zarrDataType(format, bits);
    if (dt === undefined) {
      fail("UNSUPPORTED", file, `band ${s + 1} has ${bits}-bit ${SAMPLE_FORMAT_NAMES[format] ?? `sample format ${format}`} samples; supported: 8/16/32-bit integers, 32/64-bit floats`);
    }
    if (dataType !== undefined && dt !== dataType) fail("UNSUPPORTED", file, `its bands have different data types (${dataType} and ${dt})`);
    dataType = dt;
  }
  const dir = image.getFileDirectory();
  const keys = shortGeoKeys(numbers(await tagValue(image, "GeoKeyDirectory")));
  const transform = imageTransform(
    numbers(await tagValue(image, "ModelPixelScale")),
    numbers(await tagValue(image, "ModelTiepoint")),
    numbers(await tagValue(image, "ModelTransformation")),
    file,
  );
  const model = keys.get(GT_MODEL_TYPE);
  const projected = keys.get(PROJECTED_CS_TYPE);
  const geographic = keys.get(GEOGRAPHIC_TYPE);
  let code: string | undefined;
  if (projected !== undefined && projected !== USER_DEFINED && model !== MODEL_TYPE_GEOGRAPHIC) code = `EPSG:${projected}`;
  else if (geographic !== undefined && geographic !== USER_DEFINED && model !== MODEL_TYPE_PROJECTED) code = `EPSG:${geographic}`;
  const registration: Registration = keys.get(GT_RASTER_TYPE) === RASTER_PIXEL_IS_POINT ? "node" : "pixel";
  const tiled = !dir.hasTag("StripOffsets");
  const blockShape: [number, number] = [tiled ? image.getTileHeight() : image.getBlockHeight(0), tiled ? image.getTileWidth() : width];
  const compression = Number(dir.getValue("Compression") ?? 1);
  const descriptions: Array<string | undefined> = [];
  const scales: Array<number | undefined> = [];
  const offsets: Array<number | undefined> = [];
  const hasGdalMetadata = dir.hasTag("GDAL_METADATA");
  for (let s = 0; s < bands; s++) {
    const md = hasGdalMetadata ? await image.getGDALMetadata(s) : null;
    const text = (name: string) => (md !== null && typeof md[name] === "string" ? (md[name] as string) : undefined);
    descriptions.push(text("DESCRIPTION"));
    const scale = Number(text("SCALE"));
    const offset = Number(text("OFFSET"));
    scales.push(text("SCALE") !== undefined && Number.isFinite(scale) ? scale : undefined);
    offsets.push(text("OFFSET") !== undefined && Number.isFinite(offset) ? offset : undefined);
  }
  const info: GeoTiffInfo = { width, height, bands, dataType: dataType as string, transform, registration, tiled, blockShape, compression, descriptions, scales, offsets };
  if (code !== undefined) info.code = code;
  const nodata = parseNodata(await tagValue(image, "GDAL_NODATA"));
  if (nodata !== undefined) info.nodata = nodata;
  return info;
}

function isValidName(name: string | undefined): name is string {
  if (name === undefined || name === "" || name === "x" || name === "y" || name.length > 255) return false;
  try {
    validateNodeName(name);
    return /^[\w.-]+$/.test(name);
  } catch {
    return false;
  }
}

/** The band array names {@link BandNaming} asks for, checked usable and distinct. */
export function bandNames(info: GeoTiffInfo, option: BandNaming | undefined, file: string): string[] {
  const numbered = info.descriptions.map((_, i) => `band_${i + 1}`);
  if (option === undefined || option === "description") {
    const d = info.descriptions;
    return d.every(isValidName) && new Set(d).size === d.length ? (d as string[]) : numbered;
  }
  if (option === "band") return numbered;
  if (!Array.isArray(option) || option.length !== info.bands) fail("INVALID_ARGUMENT", file, `has ${info.bands} band(s): give ${info.bands} band name(s)`);
  for (const n of option) if (!isValidName(n)) fail("INVALID_ARGUMENT", file, `${JSON.stringify(n)} is not a usable band array name`);
  if (new Set(option).size !== option.length) fail("INVALID_ARGUMENT", file, "the band names are not distinct");
  return [...option];
}

/** Whether `v` is a value of the integer data type `dt`. */
export function fitsInteger(dt: string, v: number): boolean {
  if (!Number.isInteger(v)) return false;
  const bits = Number(dt.replace(/^u?int/, ""));
  if (dt.startsWith("u")) return v >= 0 && v < 2 ** bits;
  return v >= -(2 ** (bits - 1)) && v < 2 ** (bits - 1);
}

/** A number as Zarr fill-value JSON (`"NaN"`, `"Infinity"`, `"-Infinity"` for the specials). */
export function fillJson(v: number): JsonValue {
  if (Number.isNaN(v)) return "NaN";
  if (v === Number.POSITIVE_INFINITY) return "Infinity";
  if (v === Number.NEGATIVE_INFINITY) return "-Infinity";
  return v;
}

/** Opens a TIFF from a path or bytes; what cannot be opened is an `INVALID_ARGUMENT` ZarrError naming it. */
export async function openTiff(source: ArrayBuffer | Uint8Array | string, signal?: AbortSignal): Promise<GeoTIFF> {
  try {
    if (typeof source === "string") return await fromFile(source, signal);
    const buffer =
      source instanceof Uint8Array
        ? source.byteOffset === 0 && source.byteLength === source.buffer.byteLength && source.buffer instanceof ArrayBuffer
          ? source.buffer
          : source.slice().buffer
        : source;
    return await fromArrayBuffer(buffer as ArrayBuffer, signal);
  } catch (error) {
    const name = typeof source === "string" ? source : "(buffer)";
    if (error instanceof ZarrError) throw error;
    const code = (error as { code?: string }).code;
    if (code === "ENOENT" || code === "EACCES" || code === "EISDIR") throw new ZarrError("INVALID_ARGUMENT", `GeoTIFF ${name}: cannot open (${code})`, { cause: error });
    throw new ZarrError("INVALID_ARGUMENT", `GeoTIFF ${name}: not a readable TIFF (${(error as Error).message})`, { cause: error });
  }
}

/** Image (IFD) `index` of the TIFF, or an `INVALID_ARGUMENT` ZarrError naming the file. */
export async function getImage(tiff: GeoTIFF, index: number, file: string): Promise<GeoTIFFImage> {
  const count = await readingTiff(file, () => tiff.getImageCount());
  if (!Number.isSafeInteger(index) || index < 0 || index >= count) fail("INVALID_ARGUMENT", file, `has ${count} image(s), there is no image ${index}`);
  try {
    return await tiff.getImage(index);
  } catch (error) {
    throw new ZarrError("INVALID_ARGUMENT", `GeoTIFF ${file}: cannot read image ${index} (${(error as Error).message})`, { cause: error });
  }
}

