/**
 * The `zarr` command: every command, each loaded on use, through {@link dispatch}.
 * (`bin/zarr.js` sends `info` and `tree` to the metadata bundle instead when it is built.)
 */
import { type CliIO, processIO } from "./cli-io.js";
import { type CommandTable, dispatch } from "./dispatch.js";

/** Commands load on use, so `--help` and usage errors do not pay for loading core. */
const COMMANDS: CommandTable = {
  info: async () => (await import("./commands/info.js")).infoCommand,
  tree: async () => (await import("./commands/tree.js")).treeCommand,
  get: async () => (await import("./commands/get.js")).getCommand,
  put: async () => (await import("./commands/put.js")).putCommand,
  convert: async () => (await import("./commands/convert.js")).convertCommand,
  cp: async () => (await import("./commands/cp.js")).cpCommand,
  geozarr: async () => (await import("./commands/geozarr.js")).geozarrCommand,
  serve: async () => (await import("./commands/serve.js")).serveCommand,
  consolidate: async () => (await import("./commands/consolidate.js")).consolidateCommand,
  icechunk: async () => (await import("./commands/icechunk.js")).icechunkCommand,
  refs: async () => (await import("./commands/refs.js")).refsCommand,
};

/**
 * Runs the `zarr` command with `argv` (the arguments after `zarr`) and resolves its exit
 * status. Never rejects: errors are reported on `io` as `zarr: [CODE] message`.
 *
 * @example
 * ```ts
 * const status = await main(["info", "data.zarr", "t2m", "--json"]);
 * ```
 */
export function main(argv: readonly string[], io: CliIO = processIO()): Promise<number> {
  return dispatch(argv, io, COMMANDS);
}

/**
 * Runs {@link main} with the process's arguments and sets `process.exitCode` (used by
 * `bin/zarr.js`).
 */
export async function run(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  process.exitCode = await main(argv);
}
