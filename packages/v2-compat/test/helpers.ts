/** Shared test setup: a registry with every codec and the formats, fixture paths, Python helpers. */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { blosc } from "@zarr/codec-blosc";
import { bz2 } from "@zarr/codec-bz2";
import { crc32cCodec } from "@zarr/codec-crc32c";
import { filterCodecs } from "@zarr/codec-filters";
import { gzip, zlib } from "@zarr/codec-gzip";
import { lz4 } from "@zarr/codec-lz4";
import { lzma } from "@zarr/codec-lzma";
import { vlenBytes, vlenUtf8 } from "@zarr/codec-vlen";
import { zstd } from "@zarr/codec-zstd";
import { createRegistry, type Registry } from "@zarr/core";
import { fixturesDir } from "../../../scripts/test-env.mjs";
import { draftFormat, v2Format } from "../src/index.js";

/** Every codec, plus the Zarr v2 and early-draft formats. */
export function fullRegistry(): Registry {
  return createRegistry([gzip, zlib, zstd, blosc, lz4, bz2, lzma, crc32cCodec, vlenUtf8, vlenBytes, ...filterCodecs, v2Format, draftFormat]);
}

/** The zarr-python fixture directory of format `v`. */
export function fixture(...parts: string[]): string {
  return join(fixturesDir(), "zarr-python", ...parts);
}

/** Runs one of the scripts in test/python with /usr/bin/python3 (call requirePythonZarr() first); returns stdout. */
export function pythonScript(script: string, args: string[] = [], input?: string): string {
  return execFileSync("/usr/bin/python3", [join(import.meta.dirname, "python", script), ...args], {
    input,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, ZARR_V3_EXPERIMENTAL_API: "1", PYTHONWARNINGS: "ignore", PYTHONDONTWRITEBYTECODE: "1" },
  });
}
