/**
 * The `zarr` command: dispatches to a command, and turns every failure into one line
 * on standard error and an exit status (0 success, 1 error, 2 usage error).
 */
import { readFileSync } from "node:fs";
import { ZarrError } from "@zarr/spec";
import { type CliIO, processIO } from "./cli-io.js";
import { GENERAL_USAGE, USAGE, UsageError } from "./usage.js";

type Command = (args: string[], io: CliIO) => Promise<void>;

/** Commands load on use, so `--help` and usage errors do not pay for loading core. */
const COMMANDS: Record<string, () => Promise<Command>> = {
  info: async () => (await import("./commands/info.js")).infoCommand,
  tree: async () => (await import("./commands/tree.js")).treeCommand,
  get: async () => (await import("./commands/get.js")).getCommand,
  put: async () => (await import("./commands/put.js")).putCommand,
  convert: async () => (await import("./commands/convert.js")).convertCommand,
  cp: async () => (await import("./commands/cp.js")).cpCommand,
  geozarr: async () => (await import("./commands/geozarr.js")).geozarrCommand,
};

function version(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version?: string };
    return pkg.version ?? "unknown";
  } catch {
    return "unknown";
  }
}

/** A message on one line: line breaks inside it become spaces. */
function oneLine(message: string): string {
  return message.replace(/\s*[\r\n]+\s*/g, " ");
}

/**
 * Runs the `zarr` command with `argv` (the arguments after `zarr`) and resolves its exit
 * status. Never rejects: errors are reported on `io` as `zarr: [CODE] message`.
 *
 * @example
 * ```ts
 * const status = await main(["info", "data.zarr", "t2m", "--json"]);
 * ```
 */
export async function main(argv: readonly string[], io: CliIO = processIO()): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === undefined) throw new UsageError("missing command");
    if (command === "--help" || command === "-h" || command === "help") {
      const topic = command === "help" ? rest[0] : undefined;
      await io.write(`${topic !== undefined && Object.hasOwn(USAGE, topic) ? USAGE[topic] : GENERAL_USAGE}\n`);
      return 0;
    }
    if (command === "--version" || command === "-V") {
      await io.write(`${version()}\n`);
      return 0;
    }
    const load = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
    if (load === undefined) throw new UsageError(`unknown command ${JSON.stringify(command)}`);
    await (await load())(rest, io);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.error(`zarr: ${oneLine(error.message)}`);
      io.error(error.command !== undefined ? USAGE[error.command] : GENERAL_USAGE);
      return 2;
    }
    if (error instanceof ZarrError) {
      io.error(`zarr: [${error.code}] ${oneLine(error.message)}`);
      return 1;
    }
    if ((error as NodeJS.ErrnoException)?.code === "EPIPE") return 0; // the reader went away (| head)
    const message = error instanceof Error ? error.message : String(error);
    io.error(`zarr: internal error: ${oneLine(message)}${process.env.ZARR_DEBUG ? "" : " (set ZARR_DEBUG=1 for details)"}`);
    if (process.env.ZARR_DEBUG && error instanceof Error && error.stack) io.error(error.stack);
    return 1;
  }
}

/**
 * Runs {@link main} with the process's arguments and sets `process.exitCode` (used by
 * `bin/zarr.js`).
 */
export async function run(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  process.exitCode = await main(argv);
}
