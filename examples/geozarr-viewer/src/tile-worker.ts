/**
 * The tile workers' script: core's worker runtime serving @zarr/maplibre's tile task, with
 * proj4 for data in CRSs other than EPSG:3857 and EPSG:4326.
 */
import { serveWorkerCalls } from "@zarr/core/worker-runtime";
import { proj4Reprojector } from "@zarr/geozarr/proj4";
import * as tileTask from "@zarr/maplibre/tile-task";
import proj4 from "proj4";

tileTask.setTileReprojector(proj4Reprojector(proj4));
serveWorkerCalls({ modules: { "@zarr/maplibre/tile-task": tileTask } });
