// A tile task for Node worker threads with proj4 for UTM data: what an app's worker script
// does with setTileReprojector, here as a module the pool loads by URL.
import { proj4Reprojector } from "@zarr/geozarr/proj4";
import proj4 from "proj4";
import { setTileReprojector } from "../../dist/tile-task.js";

setTileReprojector(proj4Reprojector(proj4));

export { paintTile } from "../../dist/tile-task.js";
