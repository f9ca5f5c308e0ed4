// Shared by the bench scripts: command-line options, sizes, paths, and checks for the
// peers (zarr-python, zarrita.js) and for the built packages.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root, the bench directory and the CLI entry point. */
export const REPO = resolve(import.meta.dirname, "..", "..");
export const BENCH = join(REPO, "bench");
export const LIB = join(BENCH, "lib");
export const CLI = join(REPO, "packages", "cli", "bin", "zarr.js");
export const PYTHON = "/usr/bin/python3";
export const NODE = process.execPath;
export const MiB = 1024 * 1024;
export const CPUS = availableParallelism();

/**
 * The command line of a bench script: `flag("--x")`, `option("--x", fallback)`,
 * `number("--x", fallback)` and `list("--only")`. `--smoke` is an alias of `--quick`.
 */
export function parseArgs(argv = process.argv.slice(2)) {
  const has = (name) => argv.includes(name);
  const option = (name, fallback) => {
    const i = argv.indexOf(name);
    if (i < 0) return fallback;
    if (i + 1 >= argv.length || argv[i + 1].startsWith("--")) throw new Error(`${name} needs a value`);
    return argv[i + 1];
  };
  const number = (name, fallback) => {
    const v = option(name, undefined);
    if (v === undefined) return fallback;
    const n = Number(v);
    if (!Number.isFinite(n)) throw new Error(`${name} must be a number, got ${JSON.stringify(v)}`);
    return n;
  };
  const list = (name) => option(name, undefined)?.split(",").filter(Boolean);
  return { argv, flag: has, option, number, list, quick: has("--quick") || has("--smoke"), json: option("--json", undefined) };
}

/** Repetitions: `--reps N`, else `quick` in quick mode and `full` otherwise. */
export function reps(args, full, quick = 1) {
  return Math.max(1, Math.floor(args.number("--reps", args.quick ? quick : full)));
}

/** Fails with a clear message when dist/ is missing (the scripts run the built packages). */
export function requireBuilt() {
  for (const p of ["packages/all/dist/index.js", "packages/cli/dist/main.js", "packages/core/dist/workers/index.js"]) {
    if (!existsSync(join(REPO, p))) {
      console.error(`bench: ${p} is missing; build the packages first (pnpm build at the repository root).`);
      process.exit(1);
    }
  }
}

let python;
/**
 * Whether Debian's /usr/bin/python3 with zarr 2.x, numcodecs and numpy is there (result cached).
 * ZARR_BENCH_NO_PYTHON=1 (or ZARR_TEST_NO_PYTHON) simulates a machine without it.
 */
export function pythonZarr() {
  if (python === undefined) {
    if (process.env.ZARR_BENCH_NO_PYTHON || process.env.ZARR_TEST_NO_PYTHON) {
      python = { ok: false, why: "disabled by ZARR_BENCH_NO_PYTHON" };
    } else {
      const r = spawnSync(PYTHON, ["-c", "import numpy, zarr, numcodecs; print(zarr.__version__, numcodecs.__version__)"], {
        encoding: "utf8",
        timeout: 60_000,
      });
      python =
        r.status === 0
          ? { ok: true, version: r.stdout.trim().split(" ")[0] }
          : { ok: false, why: r.error ? `${PYTHON}: ${r.error.message}` : (r.stderr.trim().split("\n").pop() ?? "import failed") };
    }
  }
  return python;
}

/** Just /usr/bin/python3 (no zarr needed): the rusage wrapper of memory.mjs. */
export function pythonOnly() {
  if (process.env.ZARR_BENCH_NO_PYTHON || process.env.ZARR_TEST_NO_PYTHON) return false;
  return spawnSync(PYTHON, ["-c", "import resource"], { timeout: 30_000 }).status === 0;
}

let zarrita;
/**
 * zarrita.js and @zarrita/storage, imported once: `{ ok, zarrita, storage }` or `{ ok: false, why }`.
 * ZARR_BENCH_NO_ZARRITA=1 simulates a machine without them.
 */
export async function loadZarrita() {
  if (zarrita === undefined) {
    if (process.env.ZARR_BENCH_NO_ZARRITA) zarrita = { ok: false, why: "disabled by ZARR_BENCH_NO_ZARRITA" };
    else {
      try {
        zarrita = { ok: true, zarrita: await import("zarrita"), storage: await import("@zarrita/storage") };
        const pkg = join(dirname(fileURLToPath(import.meta.resolve("zarrita"))), "..", "..", "package.json");
        zarrita.version = existsSync(pkg) ? JSON.parse(readFileSync(pkg, "utf8")).version : undefined;
      } catch (error) {
        zarrita = { ok: false, why: `${error.message.split("\n")[0]} (run pnpm install at the repository root)` };
      }
    }
  }
  return zarrita;
}

/** Prints (to stderr, once per peer) and returns why a peer's column is skipped. */
const warned = new Set();
export function skipping(peer, why) {
  const message = `${peer} is not available (${why}): its column is skipped.`;
  if (!warned.has(peer)) console.error(`bench: ${message}`);
  warned.add(peer);
  return message;
}

/** The array size: `--size N --chunk C`, else `quick` in quick mode and `full` otherwise. */
export function size(args, full, quick) {
  const d = args.quick ? quick : full;
  const n = args.number("--size", d.n);
  const c = args.number("--chunk", d.c);
  if (!(n > 0 && c > 0 && Number.isInteger(n) && Number.isInteger(c))) throw new Error("--size and --chunk must be positive integers");
  return { n, c };
}

/** Runs a script's main; on an error prints it (its last line: `bench: failed: message`) and exits 1. */
export async function main(fn) {
  try {
    await fn();
  } catch (error) {
    if (error?.stack) console.error(error.stack);
    console.error(`bench: failed: ${error?.message ?? error}`); // the last line: what report.mjs quotes
    process.exit(1);
  }
}
