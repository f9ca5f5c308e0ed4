// The tile task as maplibre-tiles.mjs's worker threads load it (by URL): @zarr/maplibre's
// paintTile with proj4 set as the reprojector, as an app's worker script does.
import { createRequire } from "node:module";
import { proj4Reprojector } from "@zarr/geozarr/proj4";
import { setTileReprojector } from "../../packages/maplibre/dist/tile-task.js";

// proj4 is a dev dependency of @zarr/maplibre (an app brings its own).
const proj4 = createRequire(new URL("../../packages/maplibre/package.json", import.meta.url))("proj4");
setTileReprojector(proj4Reprojector(proj4));

export { paintTile } from "../../packages/maplibre/dist/tile-task.js";
