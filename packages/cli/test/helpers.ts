/** Running the built `zarr` command and Python from tests. */

import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { fixturesDir, requirePythonZarr } from "../../../scripts/test-env.mjs";
import type { CliIO } from "../src/cli-io.js";
import { FLOAT16, FLOAT32, type NarrowFloat, roundToFormat } from "../src/float-text.js";
import { main } from "../src/main.js";

export const TEST_DIR = path.dirname(fileURLToPath(import.meta.url));
export const CLI = path.resolve(TEST_DIR, "../bin/zarr.js");
export const PYTHON = "/usr/bin/python3";
export const FIXTURES = path.join(fixturesDir(), "zarr-python");

/** Subprocesses in flight at once (they mostly wait for process start-up). */
export const CONCURRENCY = Math.max(2, os.availableParallelism() * 2);

/** What a `zarr` run produced. */
export interface RunResult {
  code: number;
  stdout: Buffer;
  stderr: string;
  /** The command line, for failure messages. */
  command: string;
}

/** Runs `node bin/zarr.js ...args` (`node ...nodeArgs bin/zarr.js ...args` with Node flags; `env` added to this process's). */
export function zarr(args: string[], options: { cwd?: string; nodeArgs?: string[]; env?: Record<string, string | undefined> } = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [...(options.nodeArgs ?? []), CLI, ...args],
      { cwd: options.cwd, encoding: "buffer", maxBuffer: 1 << 30, env: { ...process.env, ZARR_DEBUG: "", ...options.env } },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
        if (code === -1) reject(error);
        else resolve({ code, stdout, stderr: stderr.toString("utf8"), command: `zarr ${args.join(" ")}` });
      },
    );
  });
}

/** Runs `zarr` and fails with its stderr unless it exits 0. */
export async function zarrOk(args: string[]): Promise<RunResult> {
  const r = await zarr(args);
  if (r.code !== 0) throw new Error(`${r.command} exited ${r.code}: ${r.stderr}`);
  return r;
}

/** No __pycache__ in the test directory. */
const PYTHON_ENV = { ...process.env, PYTHONDONTWRITEBYTECODE: "1" };

/** Runs Python code with /usr/bin/python3 (numpy available), returning stdout. */
export function python(code: string, args: string[] = [], input?: string): string {
  requirePythonZarr();
  return execFileSync(PYTHON, ["-c", code, ...args], {
    input,
    env: PYTHON_ENV,
    encoding: "utf8",
    maxBuffer: 1 << 30,
    cwd: TEST_DIR,
  });
}

/** Runs a Python script of the test directory with /usr/bin/python3, returning stdout. */
export function pythonScript(script: string, args: string[] = [], input?: string): string {
  requirePythonZarr();
  return execFileSync(PYTHON, [path.resolve(TEST_DIR, script), ...args], {
    input,
    env: PYTHON_ENV,
    encoding: "utf8",
    maxBuffer: 1 << 30,
  });
}

/** Runs `worker` over `items` with at most `limit` in flight. */
export async function pool<T, R>(items: readonly T[], limit: number, worker: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const run = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await worker(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, run));
  return results;
}

const tempDirs: string[] = [];

/** A fresh temporary directory (removed by {@link removeTempDirs}). */
export function tempDir(prefix = "zarr-cli-"): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

/** Removes every directory {@link tempDir} made; call it from `afterAll`. */
export function removeTempDirs(): void {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * Parses what `zarr get --format json` printed and widens float32, complex64 and float16
 * numbers back to the stored values: the CLI prints them in their shortest round-trip
 * text (`0.06`), which reads back exactly once rounded to the data type's precision.
 */
export function parseGetJson(text: string): { shape: number[]; data_type: unknown; values: unknown[] } {
  const doc = JSON.parse(text);
  const dt = typeof doc.data_type === "string" ? doc.data_type : undefined;
  const format: NarrowFloat | undefined = dt === "float32" || dt === "complex64" ? FLOAT32 : dt === "float16" ? FLOAT16 : undefined;
  if (format === undefined) return doc;
  const widen = (v: unknown): unknown => (typeof v === "number" ? roundToFormat(v, format) : Array.isArray(v) ? v.map(widen) : v);
  return { ...doc, values: doc.values.map(widen) };
}

/**
 * Deep equality for JSON values where numbers compare with `Object.is` (so -0 differs
 * from 0). Returns the JSON path of the first difference, or undefined.
 */
export function jsonDifference(a: unknown, b: unknown, where = "$"): string | undefined {
  if (typeof a === "number" && typeof b === "number") return Object.is(a, b) ? undefined : `${where}: ${a} vs ${b}`;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${where}: length ${a.length} vs ${b.length}`;
    for (let i = 0; i < a.length; i++) {
      const d = jsonDifference(a[i], b[i], `${where}[${i}]`);
      if (d !== undefined) return d;
    }
    return undefined;
  }
  if (a !== null && b !== null && typeof a === "object" && typeof b === "object" && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    if (ka.join("\0") !== kb.join("\0")) return `${where}: keys ${ka} vs ${kb}`;
    for (const k of ka) {
      const d = jsonDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${where}.${k}`);
      if (d !== undefined) return d;
    }
    return undefined;
  }
  return a === b ? undefined : `${where}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
}

/**
 * Runs the CLI in this process through `main` (faster than a subprocess; the tests can
 * then reach the stores it wrote), collecting what it writes and its error lines.
 */
export async function runInProcess(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  const err: string[] = [];
  const io: CliIO = {
    write: async (chunk) => {
      out += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    },
    error: (line) => {
      err.push(line);
    },
  };
  const code = await main(argv, io);
  return { code, out, err: err.join("\n") };
}

/** Raw band-sequential little-endian uint16 bands → ENVI → GeoTIFF with gdal_translate (`args`: its options). */
export function gdalTiff(bands: Uint16Array[], width: number, height: number, args: string[]): string {
  const dir = tempDir("zarr-geotiff-");
  const raw = path.join(dir, "in.raw");
  writeFileSync(raw, Buffer.concat(bands.map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength))));
  writeFileSync(
    path.join(dir, "in.hdr"),
    `ENVI\nsamples = ${width}\nlines = ${height}\nbands = ${bands.length}\nheader offset = 0\nfile type = ENVI Standard\ndata type = 12\ninterleave = bsq\nbyte order = 0\n`,
  );
  const out = path.join(dir, "in.tif");
  execFileSync("gdal_translate", ["-q", "-of", "GTiff", ...args, raw, out], { stdio: "pipe" });
  return out;
}
