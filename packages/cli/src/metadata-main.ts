/**
 * The entry of the metadata bundle (`dist/bundle/metadata-main.js`): `zarr info` and
 * `zarr tree`, which read metadata only. Bundled into a few files with the code they use
 * (@zarr/spec, the parts of @zarr/core they reach, @zarr/store-fs), they start in a
 * fraction of the time the same modules take one by one; codec, store and format
 * packages stay in chunks loaded on first use. `bin/zarr.js` runs it for those two
 * commands, and the bundled `main.js` for the others (whose worker threads run the
 * bundle's own worker script, worker.ts).
 */
import { processIO } from "./cli-io.js";
import { infoCommand } from "./commands/info.js";
import { treeCommand } from "./commands/tree.js";
import { type CommandTable, dispatch } from "./dispatch.js";

/** The commands of the metadata bundle. */
export const METADATA_COMMANDS: CommandTable = {
  info: async () => infoCommand,
  tree: async () => treeCommand,
};

/** Runs `zarr info` or `zarr tree` (`argv` from the command name on) and sets `process.exitCode`. */
export async function run(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  process.exitCode = await dispatch(argv, processIO(), METADATA_COMMANDS);
}
