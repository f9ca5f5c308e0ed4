#!/usr/bin/env node
// Builds the viewer into dist/: index.html and one ES module bundle (esbuild), from the
// workspace packages' TypeScript sources. Usage: node build.mjs [--minify]
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = import.meta.dirname;

/** Bundles the page into `outDir` (default dist/); resolves the output directory. */
export async function buildViewer({ outDir = join(here, "dist"), minify = false } = {}) {
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints: [join(here, "src", "viewer.ts")],
    outfile: join(outDir, "viewer.js"),
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
  return outDir;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = await buildViewer({ minify: process.argv.includes("--minify") });
  console.log(`built ${out}`);
}
