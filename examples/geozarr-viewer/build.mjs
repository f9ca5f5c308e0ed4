#!/usr/bin/env node
// Builds the viewer into dist/: index.html, the page's and the tile workers' ES module
// bundles (esbuild, from the workspace packages' TypeScript sources), MapLibre's worker and
// stylesheet, and the coastline basemap. Usage: node build.mjs [--minify]
import { copyFileSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = import.meta.dirname;

/** Bundles the page into `outDir` (default dist/); resolves the output directory. */
export async function buildViewer({ outDir = join(here, "dist"), minify = false } = {}) {
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints: { viewer: join(here, "src", "viewer.ts"), "tile-worker": join(here, "src", "tile-worker.ts") },
    outdir: outDir,
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    // Workspace packages export their sources under this condition: no dist/ needed.
    conditions: ["@zarr/source"],
    minify,
    sourcemap: true,
    logLevel: "warning",
  });
  copyFileSync(join(here, "index.html"), join(outDir, "index.html"));
  copyFileSync(join(here, "basemap", "coastlines-110m.geojson"), join(outDir, "coastlines-110m.geojson"));
  const maplibre = dirname(createRequire(import.meta.url).resolve("maplibre-gl/package.json"));
  for (const file of ["maplibre-gl-worker.mjs", "maplibre-gl.css"]) copyFileSync(join(maplibre, "dist", file), join(outDir, file));
  return outDir;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = await buildViewer({ minify: process.argv.includes("--minify") });
  console.log(`built ${out}`);
}
