/**
 * Vitest global setup: every test run gets a fresh temporary directory as TMPDIR (so
 * `os.tmpdir()`, Python's tempfile and GDAL use it), and the run fails if anything is
 * left in it at the end. That is how tests are held to cleaning up after themselves.
 * `ZARR_TEST_KEEP_TMP=1` keeps the directory (and its path is printed) for debugging.
 *
 * Vitest runs a global setup once per project, in one process: with several projects
 * (store-http runs every test with two fetch implementations) only the first makes the
 * directory and checks it; the others share it. Otherwise the second directory was made
 * inside the first, and whichever teardown came first found the other's entry.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** Set while a setup owns the run's directory. */
const OWNER = "ZARR_TEST_TMP_OWNER";

export default function setup() {
  if (process.env[OWNER] !== undefined) return () => {};
  const previous = process.env.TMPDIR;
  const dir = mkdtempSync(path.join(tmpdir(), "zarr-test-run-"));
  process.env.TMPDIR = dir;
  process.env[OWNER] = dir;
  return () => {
    delete process.env[OWNER];
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    const left = readdirSync(dir);
    if (process.env.ZARR_TEST_KEEP_TMP === "1") {
      console.log(`test temp directory kept: ${dir}`);
      return;
    }
    rmSync(dir, { recursive: true, force: true });
    if (left.length > 0) {
      // Vitest reports an error thrown here but still exits 0, so set the exit code too.
      process.exitCode = 1;
      throw new Error(`tests left ${left.length} entr${left.length === 1 ? "y" : "ies"} in the temporary directory: ${left.slice(0, 12).join(", ")}${left.length > 12 ? ", ..." : ""}`);
    }
  };
}
