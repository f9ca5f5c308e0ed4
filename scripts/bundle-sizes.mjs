#!/usr/bin/env node
// Browser bundle sizes: bundles each package's entry for the browser with esbuild
// (minified, tree-shaken, from the built dist/) and prints the sizes; then checks that an
// app importing only @zarr/core and @zarr/codec-gzip gets no zstd, blosc or sharding code.
//
//   node scripts/bundle-sizes.mjs          print the table and run the check
//   node scripts/bundle-sizes.mjs --json   machine-readable output
import { rmSync, writeFileSync } from "node:fs";

import { join, relative } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const root = join(import.meta.dirname, "..");


/** Bundles `code` (an entry module) for browsers; returns the output and the input files it pulled in. */
async function bundle(name, code) {
  const entry = join(root, "packages", "all", `.bundle-entry-${process.pid}-${name.replace(/\W/g, "_")}.mjs`);
  writeFileSync(entry, code);
  try {
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      minify: true,
      format: "esm",
      platform: "browser",
      write: false,
      metafile: true,
      logLevel: "silent",
    });
    const text = result.outputFiles[0].contents;
    return { bytes: text.length, gzip: gzipSync(text).length, inputs: Object.keys(result.metafile.inputs) };
  } finally {
    rmSync(entry, { force: true });
  }
}

const packages = [
  ["@zarr/core", "createRegistry, get, open"],
  ["@zarr/codec-gzip", "gzip, zlib"],
  ["@zarr/codec-zstd", "zstd"],
  ["@zarr/codec-blosc", "blosc"],
  ["@zarr/codec-lz4", "lz4"],
  ["@zarr/codec-crc32c", "crc32cCodec"],
  ["@zarr/codec-vlen", "vlenUtf8, vlenBytes"],
  ["@zarr/codec-sharding", "shardingIndexed"],
  ["@zarr/codec-filters", "filterCodecs"],
  ["@zarr/codec-bz2", "bz2"],
  ["@zarr/codec-lzma", "lzma"],
  ["@zarr/store-http", "HttpStore"],
  ["@zarr/store-zip", "ZipStore"],
];

const rows = [];
for (const [pkg, names] of packages) {
  const b = await bundle(pkg, `import { ${names} } from "${pkg}";\nconsole.log(${names.split(",").join(" ,")});\n`);
  rows.push({ package: pkg, imports: names, bytes: b.bytes, gzip: b.gzip });
}

// The check: core + gzip only.
const app = await bundle(
  "core-gzip",
  `import { createRegistry, open, get } from "@zarr/core";\nimport { gzip } from "@zarr/codec-gzip";\nconsole.log(createRegistry([gzip]), open, get);\n`,
);
const forbidden = ["codec-zstd", "codec-blosc", "codec-sharding", "codec-lz4", "fzstd", "store-fs", "node:"];
const leaked = app.inputs.filter((i) => forbidden.some((f) => i.includes(f)));


if (process.argv.includes("--json")) {
  console.log(JSON.stringify({ rows, app: { bytes: app.bytes, gzip: app.gzip, leaked } }, null, 2));
} else {
  console.log("Browser bundle sizes (esbuild, minified ESM; a bundle importing just these names):\n");
  console.log(`${"package".padEnd(24)}${"imports".padEnd(28)}${"minified".padStart(10)}${"gzipped".padStart(10)}`);
  for (const r of rows) {
    console.log(`${r.package.padEnd(24)}${r.imports.padEnd(28)}${(r.bytes / 1024).toFixed(1).padStart(8)} K${(r.gzip / 1024).toFixed(1).padStart(8)} K`);
  }
  console.log(`\n@zarr/core + @zarr/codec-gzip app: ${(app.bytes / 1024).toFixed(1)} K minified, ${(app.gzip / 1024).toFixed(1)} K gzipped`);
  console.log(leaked.length === 0 ? "It contains no zstd, blosc, lz4, sharding or Node-only code." : `LEAKED into it: ${leaked.map((l) => relative(root, l)).join(", ")}`);
}
if (leaked.length > 0) process.exit(1);
