/**
 * The benchmark scripts in bench/ still run (each with --smoke: small data, one
 * repetition). Only that they run and print their tables is checked; their timings are
 * not tested (see bench/ for the real runs).
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { requirePythonZarr } from "../../../scripts/test-env.mjs";

const BENCH = join(import.meta.dirname, "..", "..", "..", "bench");
const run = async (script: string, ...args: string[]) =>
  (await promisify(execFile)(process.execPath, [join(BENCH, script), "--smoke", ...args], { timeout: 240_000 })).stdout;

it("bench/http.mjs --smoke runs @zarr and zarrita.js over HTTP", async () => {
  const out = await run("http.mjs");
  expect(out).toMatch(/uncompressed .* @zarr /);
  expect(out).toMatch(/blosc-lz4-shuffle .* zarrita\.js /);
});

it("bench/read.mjs --smoke runs the three readers", async () => {
  requirePythonZarr(); // the data is written by zarr-python
  const out = await run("read.mjs", "--only", "uncompressed,zstd", "--workers", "1");
  for (const reader of ["@zarr ", "@zarr, out reused", "zarrita.js", "zarr-python 2.13"]) expect(out).toContain(reader);
  expect(out).toMatch(/zstd .* @zarr /);
});
