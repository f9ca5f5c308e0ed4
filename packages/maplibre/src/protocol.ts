/**
 * The MapLibre GL JS adapter: a handler for `maplibregl.addProtocol("geozarr", …)` that
 * answers `geozarr://<dataset-id>/{z}/{x}/{y}` with a rendered tile. With a worker pool,
 * the calling thread only fetches a tile's chunks and copies its window out of the
 * source's chunk cache (so a chunk read for one tile serves its neighbours); chunk
 * decoding and the pixel work run in the pool, and MapLibre's AbortController cancels
 * the fetches and the worker calls.
 */
import { throwIfAborted, type WorkerPool, ZarrError } from "@zarr/spec";
import { type Colormap, colormapTable, colourise } from "./colormap.js";
import { emptyTileValues, type Resampling, sampleTile } from "./sample.js";
import type { TileSource } from "./source.js";
import { readTileInput, type TileInput } from "./tile-read.js";
import type { TilePaint } from "./tile-task.js";
import { TILE_SIZE, type TileCoord } from "./web-mercator.js";

/** One dataset the protocol serves: a source and how to colour it. */
export interface ProtocolLayer {
  source: TileSource;
  /** Default `"viridis"`. */
  colormap?: Colormap;
  reverse?: boolean;
  /** Default the source's range. */
  range?: readonly [number, number];
  /** Default `"nearest"`. */
  resampling?: Resampling;
  /** See `SampleOptions.reprojectionError` (default 0.01 source pixel). */
  reprojectionError?: number;
}

/** Options of {@link geozarrProtocol}. */
export interface GeozarrProtocolOptions {
  /** Datasets by the id in the tile URL. More can be added with `set`. */
  datasets?: Record<string, ProtocolLayer>;
  /**
   * Workers for chunk decoding and the pixel work: a pool (`createWorkerPool` of
   * `@zarr/core/workers`) whose worker script registers `@zarr/maplibre/tile-task`,
   * `@zarr/core/engine-task` and the codecs' modules (see the tile-task module). Without
   * one, everything runs on the calling thread.
   */
  workers?: WorkerPool;
  /** The module name or URL the workers load the tile task from (default `"@zarr/maplibre/tile-task"`). */
  taskModule?: string;
  /**
   * Turns RGBA pixels into what the protocol answers. Default: an `ImageBitmap`
   * (`createImageBitmap`), which MapLibre draws without decoding anything.
   */
  toImage?: (rgba: Uint8ClampedArray, size: number) => Promise<object> | object;
}

/** The handler {@link geozarrProtocol} returns: MapLibre's `AddProtocolAction`, plus the datasets it serves. */
export interface GeozarrProtocol {
  (request: { url: string }, abortController: AbortController): Promise<{ data: object }>;
  /** Serves (or replaces) a dataset under `id`. Use a new id when what a tile shows changes, so MapLibre's tile cache does not mix them. */
  set(id: string, layer: ProtocolLayer): void;
  /** Stops serving `id`. */
  delete(id: string): void;
  /** Tiles painted so far (not counting cancelled ones). */
  readonly painted: number;
}

const TILE_URL = /^geozarr:\/\/([^/?#]+)\/(\d+)\/(\d+)\/(\d+)(?:\.\w+)?(?:[?#].*)?$/;

/** The dataset id and tile of a `geozarr://<id>/{z}/{x}/{y}` URL (`INVALID_ARGUMENT` otherwise). */
export function parseTileUrl(url: string): { id: string; tile: TileCoord } {
  const m = TILE_URL.exec(url);
  if (m === null) throw new ZarrError("INVALID_ARGUMENT", `Not a GeoZarr tile URL: "${url}" (geozarr://<dataset-id>/{z}/{x}/{y})`);
  return { id: decodeURIComponent(m[1]), tile: { z: Number(m[2]), x: Number(m[3]), y: Number(m[4]) } };
}

async function imageBitmap(rgba: Uint8ClampedArray, size: number): Promise<object> {
  if (typeof createImageBitmap !== "function" || typeof ImageData !== "function") {
    throw new ZarrError("UNSUPPORTED", "No createImageBitmap here: pass toImage to geozarrProtocol");
  }
  return createImageBitmap(new ImageData(rgba as Uint8ClampedArray<ArrayBuffer>, size, size));
}

/** True when `data`'s buffer is its own, so it can be moved to a worker instead of copied. */
function ownsBuffer(data: ArrayBufferView): boolean {
  return data.buffer instanceof ArrayBuffer && data.byteOffset === 0 && data.byteLength === data.buffer.byteLength;
}

/**
 * A MapLibre protocol handler serving GeoZarr tiles.
 *
 * @example
 * ```ts
 * const protocol = geozarrProtocol({ datasets: { sst: { source, colormap: "magma" } }, workers });
 * maplibregl.addProtocol("geozarr", protocol);
 * map.addSource("sst", { type: "raster", tiles: ["geozarr://sst/{z}/{x}/{y}"], tileSize: 256 });
 * ```
 */
export function geozarrProtocol(options: GeozarrProtocolOptions = {}): GeozarrProtocol {
  const layers = new Map<string, ProtocolLayer>(Object.entries(options.datasets ?? {}));
  const toImage = options.toImage ?? imageBitmap;
  const taskModule = options.taskModule ?? "@zarr/maplibre/tile-task";
  let painted = 0;

  async function paint(input: TileInput | undefined, layer: ProtocolLayer, signal: AbortSignal): Promise<Uint8ClampedArray> {
    const range = layer.range ?? layer.source.range;
    const table = colormapTable(layer.colormap ?? "viridis", { reverse: layer.reverse });
    if (input === undefined) {
      const empty = emptyTileValues();
      return colourise(empty.values, empty.valid, range, table);
    }
    if (options.workers === undefined) {
      const { values, valid } = sampleTile(input, layer.source.transforms.toData, layer);
      return colourise(values, valid, range, table);
    }
    const settings: TilePaint = { range, table, resampling: layer.resampling ?? "nearest" };
    if (layer.reprojectionError !== undefined) settings.reprojectionError = layer.reprojectionError;
    const transfer = ownsBuffer(input.data) ? [input.data.buffer as ArrayBuffer] : [];
    return options.workers.run<Uint8ClampedArray>(taskModule, "paintTile", [input, settings], transfer, { signal });
  }

  const handler = async (request: { url: string }, abortController: AbortController): Promise<{ data: object }> => {
    const { id, tile } = parseTileUrl(request.url);
    const layer = layers.get(id);
    if (layer === undefined) throw new ZarrError("NODE_NOT_FOUND", `No GeoZarr dataset "${id}" is served (known: ${[...layers.keys()].join(", ") || "none"})`);
    const signal = abortController.signal;
    const input = await readTileInput(layer.source, tile, { signal, resampling: layer.resampling, workers: options.workers });
    throwIfAborted(signal);
    const rgba = await paint(input, layer, signal);
    throwIfAborted(signal);
    painted++;
    return { data: await toImage(rgba, TILE_SIZE) };
  };
  return Object.defineProperties(handler, {
    set: { value: (id: string, layer: ProtocolLayer) => void layers.set(id, layer) },
    delete: { value: (id: string) => void layers.delete(id) },
    painted: { get: () => painted },
  }) as GeozarrProtocol;
}
