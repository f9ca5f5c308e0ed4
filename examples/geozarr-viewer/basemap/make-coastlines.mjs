#!/usr/bin/env node
// Writes coastlines-110m.geojson, the viewer's offline basemap: the arcs of Natural Earth's
// 1:110m land (public domain) as one MultiLineString, decoded from world-atlas's TopoJSON
// (`npm pack world-atlas@2.0.2`, ISC). Usage: node make-coastlines.mjs path/to/land-110m.json
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const topology = JSON.parse(readFileSync(process.argv[2], "utf8"));
const [sx, sy] = topology.transform.scale;
const [tx, ty] = topology.transform.translate;
const lines = topology.arcs.map((arc) => {
  let x = 0;
  let y = 0;
  // Quantized, delta-encoded positions: running sums, then the transform.
  return arc.map(([dx, dy]) => {
    x += dx;
    y += dy;
    return [Number((x * sx + tx).toFixed(3)), Number((y * sy + ty).toFixed(3))];
  });
});
const geojson = { type: "FeatureCollection", features: [{ type: "Feature", properties: { source: "Natural Earth 1:110m land" }, geometry: { type: "MultiLineString", coordinates: lines } }] };
writeFileSync(join(import.meta.dirname, "coastlines-110m.geojson"), `${JSON.stringify(geojson)}\n`);
