/**
 * GeoTIFF import: a (Geo)TIFF file becomes a GeoZarr Dataset (one 2-D array per band,
 * `y`/`x` coordinates, `proj:code`, `spatial:transform`), optionally followed by a
 * multiscale pyramid. The TIFF is decoded by the `geotiff` package (an optional peer
 * dependency, which is why this lives at the `@zarr/geozarr/geotiff` subpath) and read
 * window by window, so memory holds a few chunks, never the whole raster.
 */
import { deleteNode, exists, normalizePath, type Registry, set, slice, type ZarrArray } from "@zarr/core";
import { type JsonObject, type Store, type TypedArray, throwIfAborted, type WorkerPool, ZarrError } from "@zarr/spec";
import type { GeoTIFFImage } from "geotiff";
import type { Affine } from "./affine.js";
import { isAxisAligned } from "./affine.js";
import type { Registration } from "./attributes.js";
import { type ConventionsOption, datasetAttributes, writeCoordinates } from "./builders.js";
import { type Crs, isGeographic } from "./crs.js";
import { type BandNaming, bandNames, describeImage, fail, fillJson, fitsInteger, type GeoTiffInfo, getImage, openTiff } from "./geotiff-image.js";
import { prefixedStore } from "./prefixed-store.js";
import { type ArraySpec, buildPyramid, gdalCrsAttribute, keepChildrenWriter, type PyramidOptions, type PyramidResult, type PyramidWriter, v3Writer } from "./pyramid.js";

export type { BandNaming, GeoTiffInfo } from "./geotiff-image.js";
export {
  type GeoTiffReference,
  type GeoTiffReferenceSet,
  type GeoTiffReferencesOptions,
  type GeoTiffReferencesResult,
  geoTiffReferences,
} from "./geotiff-references.js";

/** Elements decoded per `readRasters` call: bounds memory (16 Mi elements ≈ 64–128 MiB). */
const WINDOW_ELEMENTS = 1 << 24;

/** Progress of {@link importGeoTiff}: windows read (`"read"`), then pyramid chunks (`"pyramid"`). */
export interface GeoTiffProgress {
  phase: "read" | "pyramid";
  done: number;
  total: number;
}

/** Pyramid options of {@link importGeoTiff} (the source, target and writer are set by the import). */
export type GeoTiffPyramidOptions = Omit<
  PyramidOptions,
  "sourcePath" | "targetPath" | "writer" | "registry" | "signal" | "workers" | "onProgress" | "overwrite" | "consolidate" | "sourceIsLevelZero"
>;

/** Options of {@link importGeoTiff}. */
/** `conventions`: the declaration form written (`"v1"`, the mini-spec's, by default; `"v0.1"` for tools pinned to those tags). */
export interface GeoTiffImportOptions extends ConventionsOption {
  /** Chunk shape `[rows, cols]` (default: the TIFF's tile shape when tiled, else 512×512; capped at the image size). */
  chunkShape?: readonly [number, number];
  /** Codecs of every band array (default: the writer's default; for Zarr v3 the core default). */
  codecs?: ArraySpec["codecs"];
  /**
   * Names of the band arrays: `"band"` (`band_1`, `band_2`, ...), `"description"` (GDAL band
   * descriptions, falling back to `band_N` unless every band has a distinct valid one), or
   * one name per band. Default `"description"`.
   */
  bandNames?: BandNaming;
  /** The CRS to write when the GeoKeys name none (user-defined CRS) or to override them. */
  crs?: Crs;
  /** Which image (IFD) of the file to import (default 0, the full resolution). */
  image?: number;
  /** Also build a Multiscale Dataset at `path` (level `0` is the full resolution) with `buildPyramid`. */
  pyramid?: boolean | GeoTiffPyramidOptions;
  /** How nodes are written (default Zarr v3 through @zarr/core; `v2Writer(...)` for Zarr v2). */
  writer?: PyramidWriter;
  /**
   * Also write GDAL's `_CRS` attribute on every band (and every pyramid level), so GDAL's
   * Zarr driver sees the CRS. Default: true with a Zarr v2 writer (what GDAL 3.6 reads),
   * false for Zarr v3. `pyramid.gdalCrs`, when set, wins for the pyramid.
   */
  gdalCrs?: boolean;
  /** Replace what is at `path`. */
  overwrite?: boolean;
  /** Consolidate metadata at `path` at the end (default: true with a pyramid, false without). */
  consolidate?: boolean;
  registry?: Registry;
  signal?: AbortSignal;
  /** A worker pool (`createWorkerPool` from `@zarr/core/workers`) that encodes the bands' chunks (and the pyramid's) off the calling thread. */
  workers?: WorkerPool;
  onProgress?: (progress: GeoTiffProgress) => void;
}

/** What {@link importGeoTiff} found in the TIFF and wrote. */
export interface GeoTiffImportResult {
  path: string;
  /** Names of the band arrays, in band order. */
  variables: string[];
  /** `[height, width]`. */
  shape: [number, number];
  /** Zarr data type of the bands. */
  dataType: string;
  crs: Crs;
  /** `spatial:transform` (Rasterio order). */
  transform: Affine;
  registration: Registration;
  /** The GDAL nodata value, written as the fill value and `_FillValue`. */
  nodata?: number;
  chunkShape: [number, number];
  /** The TIFF's storage: tiles or strips, and their shape. */
  layout: { tiled: boolean; blockShape: [number, number]; compression: number };
  /** Things worth knowing that did not stop the import (e.g. a nodata value outside the data type). */
  warnings: string[];
  pyramid?: PyramidResult;
  format: 2 | 3;
}

function joinPath(a: string, b: string): string {
  return a === "" ? b : `${a}/${b}`;
}

/**
 * Reads the georeferencing and raster description of a GeoTIFF without reading pixels.
 *
 * @example
 * ```ts
 * const info = await readGeoTiffInfo("scene.tif");
 * console.log(info.code, info.transform, info.width, info.height, info.dataType);
 * ```
 */
export async function readGeoTiffInfo(source: ArrayBuffer | Uint8Array | string, options: { image?: number; signal?: AbortSignal } = {}): Promise<GeoTiffInfo> {
  const file = typeof source === "string" ? source : "(buffer)";
  const tiff = await openTiff(source, options.signal);
  try {
    return await describeImage(await getImage(tiff, options.image ?? 0, file), file);
  } finally {
    await tiff.close();
  }
}

/**
 * Imports a GeoTIFF as a GeoZarr Dataset at `path`: one 2-D array per band (named by
 * GDAL band description or `band_N`, `dimension_names` `["y", "x"]`), the 1-D coordinate
 * arrays `y` and `x` (pixel centres; the nodes for PixelIsPoint rasters), and on the
 * group `proj:code` from the GeoKeys and `spatial:transform`/`spatial:shape`/
 * `spatial:bbox` (and `spatial:registration: "node"` for PixelIsPoint). The GDAL nodata
 * value becomes each band's fill value and `_FillValue` attribute; GDAL band scale and
 * offset become `scale_factor`/`add_offset`. With `pyramid`, the group at `path` is
 * instead a Multiscale Dataset built by {@link buildPyramid} (level `0` the full resolution).
 *
 * Pixels are read window by window (whole chunks, at most ~16 Mi elements at a time).
 *
 * @example
 * ```ts
 * import { importGeoTiff } from "@zarr/geozarr/geotiff";
 * const result = await importGeoTiff("scene.tif", new FileSystemStore("scene.zarr"), "", { chunkShape: [256, 256], pyramid: { minSize: 128 } });
 * console.log(result.variables, result.crs.code, result.transform);
 * ```
 */
export async function importGeoTiff(
  source: ArrayBuffer | Uint8Array | string,
  store: Store,
  path: string,
  options: GeoTiffImportOptions = {},
): Promise<GeoTiffImportResult> {
  const signal = options.signal;
  throwIfAborted(signal);
  const file = typeof source === "string" ? source : "(buffer)";
  const base = normalizePath(path);
  const writer = options.writer ?? v3Writer(options.registry);
  const tiff = await openTiff(source, signal);
  try {
    const image = await getImage(tiff, options.image ?? 0, file);
    const info = await describeImage(image, file);
    const crs: Crs | undefined = options.crs ?? (info.code === undefined ? undefined : { code: info.code });
    if (crs === undefined) fail("UNSUPPORTED", file, "its GeoKeys name no EPSG CRS (a user-defined CRS): pass options.crs");
    const names = bandNames(info, options.bandNames, file);
    const chunk = chooseChunkShape(info, options.chunkShape, file);
    const warnings: string[] = [];
    let nodata = info.nodata;
    if (nodata !== undefined && !info.dataType.startsWith("float") && !fitsInteger(info.dataType, nodata)) {
      warnings.push(`the nodata value ${nodata} is not a ${info.dataType} value: ignored`);
      nodata = undefined;
    }
    if (!isAxisAligned(info.transform)) warnings.push("the grid is rotated: the y/x coordinate arrays hold pixel indices; use spatial:transform");
    if (await exists(store, base, { signal })) {
      if (options.overwrite !== true) throw new ZarrError("NODE_EXISTS", `A node already exists at "${base || "/"}" (pass overwrite: true to replace it)`);
      await deleteNode(store, base, { signal });
    }
    const pyramidOptions = options.pyramid === true ? {} : options.pyramid === false ? undefined : options.pyramid;
    // With a pyramid, the full-resolution Dataset is written where level 0 goes (`path/0`)
    // and buildPyramid builds the other levels from it. When level 0 must differ from what
    // the import writes (other chunks or codecs, shards, a subset of the bands, another
    // name), the Dataset goes (in Zarr v3) to a scratch child of `path` instead, level 0 is
    // a copy of it, and the scratch is deleted.
    const levelZeroInPlace = pyramidOptions !== undefined && writesLevelZero(pyramidOptions, chunk);
    const gdalCrs = pyramidOptions?.gdalCrs ?? options.gdalCrs ?? writer.format === 2;
    const datasetPath = pyramidOptions === undefined ? base : joinPath(base, levelZeroInPlace ? "0" : "_geotiff_source");
    const datasetWriter = pyramidOptions === undefined || levelZeroInPlace ? writer : v3Writer(options.registry);
    // A v3 scratch Dataset for a v2 pyramid is written in a view of the store under its own
    // prefix, where it is the root: its zarr.json documents stay inside it, never above the
    // pyramid (createGroup/createArray refuse Zarr v2 below a Zarr v3 node).
    const stagedApart = datasetWriter.format === 3 && writer.format === 2;
    const datasetStore = stagedApart ? prefixedStore(store, `${datasetPath}/`) : store;
    const datasetAt = stagedApart ? "" : datasetPath;
    const spatial = { dimensions: ["y", "x"] as const, transform: info.transform, shape: [info.height, info.width] as const, registration: info.registration };
    await datasetWriter.createGroup(datasetStore, datasetAt, datasetAttributes({ crs, spatial, conventions: options.conventions }));
    if (datasetWriter.format === 3) {
      await writeCoordinates(datasetStore, datasetAt, { ...spatial, geographic: isGeographic(crs), registry: options.registry, signal });
    } else {
      await writeCoordinatesV2(datasetWriter, datasetStore, datasetAt, info);
    }
    const arrays: ZarrArray[] = [];
    for (let b = 0; b < info.bands; b++) {
      const attributes: JsonObject = {};
      if (info.descriptions[b] !== undefined) attributes.long_name = info.descriptions[b] as string;
      if (nodata !== undefined) attributes._FillValue = fillJson(nodata);
      if (info.scales[b] !== undefined) attributes.scale_factor = info.scales[b] as number;
      if (info.offsets[b] !== undefined) attributes.add_offset = info.offsets[b] as number;
      // The bands are the final Dataset or level 0 in place (a scratch Dataset gets none: level 0 is written from it).
      if (gdalCrs && (pyramidOptions === undefined || levelZeroInPlace)) attributes._CRS = gdalCrsAttribute(crs);
      const spec: ArraySpec = {
        shape: [info.height, info.width],
        chunkShape: [chunk[0], chunk[1]],
        dataType: info.dataType,
        fillValue: nodata === undefined ? 0 : fillJson(nodata),
        dimensionNames: ["y", "x"],
        attributes,
      };
      if (options.codecs !== undefined) spec.codecs = options.codecs;
      arrays.push(await datasetWriter.createArray(datasetStore, joinPath(datasetAt, names[b]), spec));
    }
    await copyPixels(image, arrays, info, chunk, file, options);
    const result: GeoTiffImportResult = {
      path: base,
      variables: names,
      shape: [info.height, info.width],
      dataType: info.dataType,
      crs,
      transform: info.transform,
      registration: info.registration,
      chunkShape: chunk,
      layout: { tiled: info.tiled, blockShape: info.blockShape, compression: info.compression },
      warnings,
      format: writer.format,
    };
    if (nodata !== undefined) result.nodata = nodata;
    if (pyramidOptions !== undefined) {
      result.pyramid = await buildPyramid(datasetStore, store, {
        chunkShape: chunk,
        ...(options.codecs === undefined ? {} : { codecs: options.codecs }),
        ...pyramidOptions,
        gdalCrs,
        conventions: options.conventions,
        sourcePath: datasetAt,
        targetPath: base,
        sourceIsLevelZero: levelZeroInPlace,
        overwrite: true,
        consolidate: false,
        writer: keepChildrenWriter(writer, base),
        registry: options.registry,
        signal,
        workers: options.workers,
        onProgress: (p) => options.onProgress?.({ phase: "pyramid", done: p.done, total: p.total }),
      });
      if (!levelZeroInPlace) {
        await deleteNode(store, datasetPath, { signal });
      }
    }
    if ((options.consolidate ?? pyramidOptions !== undefined) && writer.consolidate !== undefined) await writer.consolidate(store, base);
    return result;
  } finally {
    await tiff.close();
  }
}

/**
 * Whether the Dataset the import writes can be level 0 of the pyramid as it is: the
 * options change nothing level 0 would hold (chunks, codecs, shards, bands, its name).
 */
function writesLevelZero(pyramid: GeoTiffPyramidOptions, chunk: [number, number]): boolean {
  const c = pyramid.chunkShape;
  const sameChunks = c === undefined || (c[0] === chunk[0] && c[1] === chunk[1]);
  return sameChunks && pyramid.codecs === undefined && pyramid.shardShape === undefined && pyramid.variables === undefined && pyramid.levelName === undefined;
}

/** Coordinates through a non-v3 writer (pixel centres, or nodes for node registration). */
async function writeCoordinatesV2(writer: PyramidWriter, store: Store, path: string, info: GeoTiffInfo): Promise<void> {
  const t = info.transform;
  const o = info.registration === "node" ? 0 : 0.5;
  const aligned = isAxisAligned(t);
  const axes: Array<[string, number, (i: number) => number]> = [
    ["y", info.height, (i) => (aligned ? t[4] * (i + o) + t[5] : i)],
    ["x", info.width, (j) => (aligned ? t[0] * (j + o) + t[2] : j)],
  ];
  for (const [name, n, f] of axes) {
    const arr = await writer.createArray(store, joinPath(path, name), { shape: [n], chunkShape: [n], dataType: "float64", fillValue: "NaN", dimensionNames: [name], attributes: {} });
    const values = new Float64Array(n);
    for (let i = 0; i < n; i++) values[i] = f(i);
    await set(arr, null, values);
  }
}

function chooseChunkShape(info: GeoTiffInfo, requested: readonly [number, number] | undefined, file: string): [number, number] {
  if (requested !== undefined) {
    if (requested.length !== 2 || requested.some((n) => !Number.isSafeInteger(n) || n < 1)) fail("INVALID_ARGUMENT", file, `the chunk shape must be two positive integers, got ${JSON.stringify(requested)}`);
    return [Math.min(requested[0], info.height), Math.min(requested[1], info.width)];
  }
  // Tiles of a plausible size are the natural chunks (one decoded tile per chunk).
  const [th, tw] = info.blockShape;
  const tiles = info.tiled && th >= 16 && tw >= 16 && th <= 4096 && tw <= 4096;
  const [ch, cw] = tiles ? [th, tw] : [512, 512];
  return [Math.min(ch, info.height), Math.min(cw, info.width)];
}

/**
 * Copies the pixels, one window of whole chunks at a time: a window spans one chunk row
 * and as many chunk columns as fit the element budget (whole rows when they fit, so each
 * strip of a striped TIFF is decoded once per chunk row), and as many bands as fit.
 */
async function copyPixels(image: GeoTIFFImage, arrays: ZarrArray[], info: GeoTiffInfo, chunk: [number, number], file: string, options: GeoTiffImportOptions): Promise<void> {
  const signal = options.signal;
  const [ch, cw] = chunk;
  const chunkElements = ch * cw;
  const bandsPerRead = Math.max(1, Math.min(info.bands, Math.floor(WINDOW_ELEMENTS / chunkElements)));
  const chunkCols = Math.ceil(info.width / cw);
  const colsPerWindow = Math.max(1, Math.min(chunkCols, Math.floor(WINDOW_ELEMENTS / (chunkElements * bandsPerRead))));
  const rowWindows = Math.ceil(info.height / ch);
  const colWindows = Math.ceil(chunkCols / colsPerWindow);
  const bandGroups = Math.ceil(info.bands / bandsPerRead);
  const total = rowWindows * colWindows * bandGroups;
  let done = 0;
  for (let r0 = 0; r0 < info.height; r0 += ch) {
    const r1 = Math.min(info.height, r0 + ch);
    for (let c0 = 0; c0 < info.width; c0 += colsPerWindow * cw) {
      const c1 = Math.min(info.width, c0 + colsPerWindow * cw);
      for (let b0 = 0; b0 < info.bands; b0 += bandsPerRead) {
        throwIfAborted(signal);
        const samples: number[] = [];
        for (let b = b0; b < Math.min(info.bands, b0 + bandsPerRead); b++) samples.push(b);
        let rasters: TypedArray[];
        try {
          rasters = (await image.readRasters({ window: [c0, r0, c1, r1], samples, interleave: false, signal })) as unknown as TypedArray[];
        } catch (error) {
          if (signal?.aborted) throw signal.reason ?? error;
          throw new ZarrError("CODEC_FAILED", `GeoTIFF ${file}: cannot decode rows ${r0}–${r1 - 1}, columns ${c0}–${c1 - 1} (${(error as Error).message})`, { cause: error });
        }
        const shape = [r1 - r0, c1 - c0];
        for (let k = 0; k < samples.length; k++) {
          const data = rasters[k];
          if (data === undefined || data.length !== shape[0] * shape[1]) {
            fail("INVALID_ARGUMENT", file, `band ${samples[k] + 1} decoded to ${data?.length ?? 0} values for a ${shape[0]}×${shape[1]} window`);
          }
          await set(arrays[samples[k]], [slice(r0, r1), slice(c0, c1)], { data, shape }, { signal, workers: options.workers });
        }
        done++;
        options.onProgress?.({ phase: "read", done, total });
      }
    }
  }
}
