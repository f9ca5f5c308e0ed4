/**
 * The tile workers' script: core's worker runtime serving @zarr/maplibre's tile task
 * (pixels), core's engine task (`decodeChunk`: the chunk cache's misses are decoded here)
 * and the codecs the viewer's registry knows, with proj4 for data in CRSs other than
 * EPSG:3857 and EPSG:4326. Modules are registered by the names the calls carry, so the
 * bundle holds them (zstd only loads when a call needs it).
 */
import * as gzipCodecs from "@zarr/codec-gzip";
import * as engineTask from "@zarr/core/engine-task";
import { serveWorkerCalls } from "@zarr/core/worker-runtime";
import { proj4Reprojector } from "@zarr/geozarr/proj4";
import * as tileTask from "@zarr/maplibre/tile-task";
import proj4 from "proj4";

tileTask.setTileReprojector(proj4Reprojector(proj4));
serveWorkerCalls({
  modules: {
    "@zarr/maplibre/tile-task": tileTask,
    "@zarr/core/engine-task": engineTask,
    "@zarr/codec-gzip": gzipCodecs,
    "@zarr/codec-zstd": () => import("@zarr/codec-zstd"),
  },
});
