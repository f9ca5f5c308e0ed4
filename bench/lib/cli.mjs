// `zarr get STORE / -o /dev/null` as the bench scripts run it: default options, unless the
// default fails: then `--format npy`, and the report says so. And the whole-process race of
// our CLI against zarrita.js and zarr-python processes reading the same array.
import { join } from "node:path";
import { CLI, LIB, NODE, PYTHON, loadZarrita, pythonZarr, skipping } from "./common.mjs";
import { race, runProcess, tail, timeProcess } from "./measure.mjs";

/** The command line of `zarr get` on the array at a store's root, writing to /dev/null. */
export const cliGetArgs = (store, extra = []) => [CLI, "get", store, "/", "-o", "/dev/null", ...extra];

/**
 * Runs `zarr get STORE / -o /dev/null` once with default options; when that fails, once more
 * with `--format npy`. Returns `{ args, fallback }`: the node arguments to time, and null or
 * a note on the fallback. Throws when both fail.
 */
export function probeCliGet(store) {
  const plain = cliGetArgs(store);
  const r = runProcess(NODE, plain);
  if (r.status === 0) return { args: plain, fallback: null };
  const npy = cliGetArgs(store, ["--format", "npy"]);
  const r2 = runProcess(NODE, npy);
  if (r2.status !== 0) throw new Error(`zarr get failed with default options (${tail(r.stderr, 1)}) and with --format npy (${tail(r2.stderr, 1)})`);
  return {
    args: npy,
    fallback: `\`zarr get ... -o /dev/null\` with default options failed (${tail(r.stderr, 1) || `exit ${r.status}`}); timed with \`--format npy\` instead.`,
  };
}

/** The peers that can run here (zarrita.js, zarr-python); the report notes those that cannot. */
export async function peers(report) {
  const zarrita = await loadZarrita();
  if (!zarrita.ok) report.note(skipping("zarrita.js", zarrita.why));
  const python = pythonZarr();
  if (!python.ok) report.note(skipping("zarr-python", python.why));
  return { zarrita: zarrita.ok, python: python.ok };
}

/**
 * Whole-process reads of one array, taking turns: our CLI on `ours` (`zarr get … -o
 * /dev/null`), zarrita.js on `zarrita` and zarr-python on `python` (each when given and
 * available). Fallbacks and failures become notes labelled `label`. Resolves the median
 * seconds by reader.
 */
export async function raceReaders(report, available, { label, ours, zarrita, python, reps, quick }) {
  const cli = probeCliGet(ours);
  if (cli.fallback) report.note(cli.fallback);
  const contenders = { "@zarr": () => timeProcess(NODE, cli.args) };
  if (available.zarrita && zarrita) contenders["zarrita.js"] = () => timeProcess(NODE, [join(LIB, "zarrita-read.mjs"), zarrita]);
  if (available.python && python) contenders["zarr-python"] = () => timeProcess(PYTHON, [join(LIB, "zarr_python.py"), "read", python]);
  const { times, errors } = await race(contenders, { reps, warmup: quick ? 0 : 1 });
  for (const [who, e] of Object.entries(errors)) report.note(`${label}: ${who} failed: ${e}`);
  return times;
}
