/**
 * @zarr/maplibre: GeoZarr (Multiscale) Datasets as Web Mercator raster tiles. A pure tile
 * function (values with a validity mask, or RGBA through a colour map), the MapLibre GL JS
 * protocol handler rendering in a worker pool, and a legend element.
 */
export { COLORMAPS, type Colormap, type ColormapName, colormapTable, colourIndex, colourise } from "./colormap.js";
export { type CrsRoute, crsRoute } from "./data-crs.js";
export { createLegend, type LegendOptions, legendGradient } from "./legend.js";
export { type GeozarrProtocol, type GeozarrProtocolOptions, geozarrProtocol, type ProtocolLayer, parseTileUrl } from "./protocol.js";
export { DEFAULT_REPROJECTION_ERROR, type Resampling, type SampleOptions, sampleTile, type TileValues } from "./sample.js";
export { openTileSource, type SourceLevel, type TileSource, type TileSourceOptions } from "./source.js";
export { type RenderTileOptions, renderTile, type TileValuesOptions, tileValues } from "./tile.js";
export { chooseTileLevel, readTileInput, type SampleArray, type TileInput, type TileReadOptions } from "./tile-read.js";
export type { TilePaint } from "./tile-task.js";
export { checkTile, EARTH_RADIUS, HALF_WORLD, lonLatToMercator, mercatorLat, mercatorLon, TILE_SIZE, type TileCoord, tileBounds } from "./web-mercator.js";
