/**
 * `@zarr/maplibre/tile-task`: the pixel work of a tile as a worker-pool call. A worker
 * script registers it with `serveWorkerCalls` of `@zarr/core/worker-runtime`, next to
 * core's engine task and the codecs' modules (the same pool decodes the tile's chunks);
 * {@link geozarrProtocol} sends it the window its main thread copied out of the chunk
 * cache. Data in CRSs other than EPSG:3857 and EPSG:4326 needs the worker's own
 * reprojector ({@link setTileReprojector}): functions do not cross threads.
 *
 * @example
 * ```ts
 * // tile-worker.js
 * import proj4 from "proj4";
 * import { serveWorkerCalls } from "@zarr/core/worker-runtime";
 * import { proj4Reprojector } from "@zarr/geozarr/proj4";
 * import { setTileReprojector } from "@zarr/maplibre/tile-task";
 * setTileReprojector(proj4Reprojector(proj4));
 * serveWorkerCalls({
 *   modules: {
 *     "@zarr/maplibre/tile-task": () => import("@zarr/maplibre/tile-task"),
 *     "@zarr/core/engine-task": () => import("@zarr/core/engine-task"),
 *     "@zarr/codec-gzip": () => import("@zarr/codec-gzip"),
 *   },
 * });
 * ```
 */
import type { PointTransform, Reprojector } from "@zarr/geozarr";
import { takesCallContext, throwIfAborted, type WorkerCallContext } from "@zarr/spec";
import { colourise } from "./colormap.js";
import { mercatorTransforms } from "./data-crs.js";
import { type SampleOptions, sampleTile } from "./sample.js";
import type { TileInput } from "./tile-read.js";

/** How a tile is coloured: plain data, so it crosses to a worker. */
export interface TilePaint extends SampleOptions {
  range: readonly [number, number];
  /** 256 RGBA entries (see `colormapTable`). */
  table: Uint8Array;
}

let reprojector: Reprojector | undefined;
const transforms = new Map<string, Promise<PointTransform>>();

/** Sets the reprojector this thread's tile calls use for CRSs other than EPSG:3857 and EPSG:4326. */
export function setTileReprojector(r: Reprojector | undefined): void {
  reprojector = r;
  transforms.clear();
}

/** EPSG:3857 → data CRS for a tile's route, made once per CRS in this thread. */
async function toDataOf(input: TileInput): Promise<PointTransform | undefined> {
  if (input.route.kind !== "reproject") return undefined;
  const key = JSON.stringify(input.route.crs);
  let t = transforms.get(key);
  if (t === undefined) {
    t = mercatorTransforms(input.route, reprojector).then((m) => m.toData);
    t.catch(() => transforms.delete(key));
    transforms.set(key, t);
  }
  return t;
}

/**
 * Samples and colours a tile whose window the main thread read: 256 × 256 RGBA bytes. Marked to take
 * the call's context, so a call MapLibre aborts before its turn never runs.
 */
export const paintTile = takesCallContext(async (input: TileInput, paint: TilePaint, context?: WorkerCallContext): Promise<Uint8ClampedArray> => {
  const toData = await toDataOf(input);
  throwIfAborted(context?.signal);
  const { values, valid } = sampleTile(input, toData, paint);
  return colourise(values, valid, paint.range, paint.table);
});
