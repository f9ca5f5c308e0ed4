// `zarr get STORE / -o /dev/null` as the bench scripts run it: default options, unless the
// default fails (today's default output is JSON, which cannot hold a 256 MiB array): then
// `--format npy`, and the report says so.
import { CLI, NODE } from "./common.mjs";
import { runProcess, tail } from "./measure.mjs";

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
