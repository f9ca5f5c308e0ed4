/**
 * Running one `zarr` command from a table of commands: help, version, usage errors and
 * turning every failure into one line on standard error and an exit status (0 success,
 * 1 error, 2 usage error). `main` runs it with every command; the metadata bundle
 * (`metadata-main`) with `info` and `tree` only.
 */
import type { CliIO } from "./cli-io.js";
import { printable } from "./printable.js";
import { GENERAL_USAGE, USAGE, UsageError } from "./usage.js";
import { cliVersion } from "./version.js";

/** A command: runs with the arguments after its name, writing to `io`; throws on failure. */
export type Command = (args: string[], io: CliIO) => Promise<void>;

/** Commands by name, each loaded on use (so `--help` and usage errors load none). */
export type CommandTable = Readonly<Record<string, () => Promise<Command>>>;

/** A message on one line: line breaks inside it become spaces, other controls escapes. */
function oneLine(message: string): string {
  return printable(message.replace(/\s*[\r\n]+\s*/g, " "));
}

/**
 * Runs the command `argv[0]` of `commands` with the rest of `argv` and resolves its exit
 * status. Never rejects: errors are reported on `io` as `zarr: [CODE] message`.
 *
 * @example
 * ```ts
 * const status = await dispatch(["info", "data.zarr"], processIO(), { info: async () => infoCommand });
 * ```
 */
export async function dispatch(argv: readonly string[], io: CliIO, commands: CommandTable): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === undefined) throw new UsageError("missing command");
    if (command === "--help" || command === "-h" || command === "help") {
      const topic = command === "help" ? rest[0] : undefined;
      await io.write(`${topic !== undefined && Object.hasOwn(USAGE, topic) ? USAGE[topic] : GENERAL_USAGE}\n`);
      return 0;
    }
    if (command === "--version" || command === "-V") {
      await io.write(`${cliVersion()}\n`);
      return 0;
    }
    const load = Object.hasOwn(commands, command) ? commands[command] : undefined;
    if (load === undefined) throw new UsageError(`unknown command ${JSON.stringify(command)}`);
    await (await load())(rest, io);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.error(`zarr: ${oneLine(error.message)}`);
      io.error(error.command !== undefined ? USAGE[error.command] : GENERAL_USAGE);
      return 2;
    }
    // Loaded here, not up front: `--help`, `--version` and usage errors never need it.
    const { ZarrError } = await import("@zarr/spec");
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
