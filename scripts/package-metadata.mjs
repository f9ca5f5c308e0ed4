#!/usr/bin/env node
/**
 * Sets the registry-facing fields of every package.json under packages/ from one place:
 * repository (with the package's directory), homepage, bugs, keywords, license and
 * publishConfig (scoped packages are private on npm unless published with access public;
 * provenance is asked for by the release workflow, which can attest it).
 * `--check` reports drift instead of writing; packages/all/test/publish-ready.test.ts runs it.
 *
 *   node scripts/package-metadata.mjs          # write
 *   node scripts/package-metadata.mjs --check  # exit 1 when a package.json differs
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/** Where the project lives. Change it here and rerun the script when the repository moves. */
export const REPOSITORY = "https://github.com/zarr-developers/zarr-ts";

const COMMON = ["zarr", "ndarray", "chunked", "array", "typescript"];
/** Extra keywords per package directory: what someone searching npm would type. */
const KEYWORDS = {
  all: ["zarr-v2", "zarr-v3", "s3", "http", "zip"],
  cli: ["cli", "command-line", "npy"],
  "codec-blosc": ["codec", "blosc", "compression", "shuffle"],
  "codec-bz2": ["codec", "bz2", "bzip2", "compression"],
  "codec-zfpy": ["codec", "zfp", "zfpy", "compression", "lossy", "floating-point"],
  "codec-crc32c": ["codec", "crc32c", "checksum"],
  "codec-filters": ["codec", "numcodecs", "filters", "delta", "bitround"],
  "codec-gzip": ["codec", "gzip", "zlib", "compression"],
  "codec-lz4": ["codec", "lz4", "compression"],
  "codec-lzma": ["codec", "lzma", "xz", "compression"],
  "codec-lzw": ["codec", "lzw", "tiff", "imagecodecs", "compression"],
  "codec-pcodec": ["codec", "pcodec", "pco", "numcodecs", "compression", "floats"],
  "codec-sharding": ["codec", "sharding", "sharding_indexed"],
  "codec-vlen": ["codec", "vlen-utf8", "vlen-bytes", "strings"],
  "codec-zstd": ["codec", "zstd", "zstandard", "compression"],
  core: ["zarr-v3", "ndarray", "hdf5-alternative"],
  geozarr: ["geozarr", "geospatial", "gis", "crs", "multiscales", "geotiff"],
  maplibre: ["geozarr", "maplibre", "maplibre-gl", "web-map", "tiles", "colormap", "openlayers"],
  xarray: ["xarray", "netcdf", "cf-conventions", "cftime", "climate"],
  spec: ["zarr-v3", "specification", "metadata"],
  "store-fs": ["store", "filesystem"],
  "store-http": ["store", "http", "range-requests"],
  "store-s3": ["store", "s3", "aws"],
  "store-gcs": ["store", "gcs", "google-cloud-storage", "gs"],
  "store-azure": ["store", "azure", "azure-blob-storage", "abfs"],
  "store-utils": ["store", "cache", "logging"],
  "store-icechunk": ["store", "icechunk", "versioned", "virtual-chunks"],
  "store-zip": ["store", "zip"],
  "store-references": ["store", "kerchunk", "virtualizarr", "references", "netcdf", "hdf5"],
  "v2-compat": ["zarr-v2", "numcodecs", "conversion"],
};

/** The fields a package.json of `dir` should carry, in the order they are written. */
function registryFields(dir) {
  return {
    license: "MIT",
    repository: { type: "git", url: `git+${REPOSITORY}.git`, directory: `packages/${dir}` },
    homepage: `${REPOSITORY}/tree/main/packages/${dir}#readme`,
    bugs: { url: `${REPOSITORY}/issues` },
    keywords: [...new Set([...COMMON, ...(KEYWORDS[dir] ?? [])])],
    publishConfig: { access: "public" },
  };
}

/** package.json text with the registry fields set (placed after `description`; other keys keep their order). */
export function withRegistryFields(manifest, dir) {
  const fields = registryFields(dir);
  const out = {};
  for (const [k, v] of Object.entries(manifest)) {
    if (k in fields) continue;
    out[k] = v;
    if (k === "description") Object.assign(out, fields);
  }
  if (!("description" in manifest)) Object.assign(out, fields);
  return `${JSON.stringify(out, null, 2)}\n`;
}

/** Every publishable package directory under packages/. */
export function packageDirs(root) {
  return readdirSync(path.join(root, "packages"), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .filter((d) => !JSON.parse(readFileSync(path.join(root, "packages", d, "package.json"), "utf8")).private)
    .sort();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = path.resolve(import.meta.dirname, "..");
  const check = process.argv.includes("--check");
  const drift = [];
  for (const dir of packageDirs(root)) {
    const file = path.join(root, "packages", dir, "package.json");
    const before = readFileSync(file, "utf8");
    const after = withRegistryFields(JSON.parse(before), dir);
    if (before === after) continue;
    if (check) drift.push(dir);
    else writeFileSync(file, after);
  }
  if (check && drift.length > 0) {
    console.error(`package.json registry fields out of date in: ${drift.join(", ")} (run node scripts/package-metadata.mjs)`);
    process.exit(1);
  }
}
