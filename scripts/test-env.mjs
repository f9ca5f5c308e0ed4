// Shared test environment helpers (plain JS so every package's tests can import it).
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { TestRunner } from "vitest";

const repoRoot = resolve(import.meta.dirname, "..");

/**
 * Where the test fixtures live: $ZARR_FIXTURES when set, else `test-data/` in this
 * repository (see test-data/README.md for where each set came from).
 */
export function fixturesDir() {
  const dir = process.env.ZARR_FIXTURES ?? join(repoRoot, "test-data");
  if (!existsSync(join(dir, "zarr-python")) || !existsSync(join(dir, "geozarr"))) {
    throw new Error(
      `Test fixtures not found at ${dir} (expected zarr-python/ and geozarr/ in it): ` +
        "restore test-data/ from git, or point ZARR_FIXTURES at a fixtures directory",
    );
  }
  return dir;
}

const probes = new Map();
function probe(name, fn) {
  if (!probes.has(name)) {
    try {
      fn();
      probes.set(name, true);
    } catch {
      probes.set(name, false);
    }
  }
  return probes.get(name);
}

/** True when Debian's /usr/bin/python3 with numpy, zarr 2.x and numcodecs is available. */
export function havePythonZarr() {
  if (process.env.ZARR_TEST_NO_PYTHON) return false; // simulate a machine without it
  return probe("python-zarr", () =>
    execFileSync("/usr/bin/python3", ["-c", "import numpy, zarr, numcodecs"], { stdio: "ignore", timeout: 30_000 }),
  );
}

/**
 * True when Debian's /usr/bin/python3 can import every module of `modules` (for example
 * `["h5py", "netCDF4", "fsspec"]`; `ZARR_TEST_NO_PYTHON` simulates a machine without python).
 */
export function havePythonModules(modules) {
  if (process.env.ZARR_TEST_NO_PYTHON) return false;
  return probe(`python:${modules.join(",")}`, () =>
    execFileSync("/usr/bin/python3", ["-c", `import ${modules.join(", ")}`], { stdio: "ignore", timeout: 30_000 }),
  );
}

/** True when GDAL's command-line tools are available. */
export function haveGdal() {
  if (process.env.ZARR_TEST_NO_GDAL) return false;
  return probe("gdal", () => execFileSync("gdalinfo", ["--version"], { stdio: "ignore", timeout: 30_000 }));
}

/** True when Debian's chromium is installed (`ZARR_TEST_NO_CHROMIUM` simulates a machine without it). */
export function haveChromium() {
  if (process.env.ZARR_TEST_NO_CHROMIUM) return false;
  return existsSync(CHROMIUM);
}

/** Where Debian's chromium lives; browser tests drive it with playwright-core. */
export const CHROMIUM = "/usr/bin/chromium";

/**
 * Whether tests that need an external peer should be skipped: only when the peer is
 * missing AND this is not CI (in CI a missing peer is a failure, not a skip).
 */
export function skipWithout(available, what) {
  if (available) return false;
  if (process.env.CI) return false;
  console.warn(`[skipped] ${what} is not installed here; these interop tests run in CI (.ci/run installs it)`);
  return true;
}

/**
 * Call inside a test that needs an external peer: when the peer is missing outside CI,
 * the running test is marked skipped (this throws vitest's skip signal); in CI, or with
 * the peer present, it returns. Outside a running test it throws an Error instead.
 */
export function requirePeer(available, what) {
  if (!skipWithout(available, what)) return;
  const test = TestRunner.getCurrentTest();
  if (test?.context) test.context.skip(`${what} is not installed`);
  throw new Error(`${what} is not installed (and this was not called inside a test)`);
}

/** `requirePeer` for Debian's python3 with numpy, zarr 2.x and numcodecs. */
export function requirePythonZarr() {
  requirePeer(havePythonZarr(), "python3-zarr (zarr-python 2.13 + numcodecs)");
}

/** Flags for a quiet headless chromium that touches no network but 127.0.0.1. */
const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

/** Launches Debian's chromium headless through playwright-core (a devDependency of the caller). */
export async function launchChromium() {
  const { chromium } = await import("playwright-core");
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}
