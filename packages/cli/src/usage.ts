/** Usage texts and usage errors (exit status 2). */
import { parseArgs } from "node:util";

/** A mistake in how the command was called: printed with the command's usage, exit status 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** The command whose usage to print (`undefined`: the general usage). */
    readonly command?: string,
  ) {
    super(message);
    this.name = "UsageError";
  }
}

/** One-paragraph usage of every command. */
export const USAGE: Record<string, string> = {
  info: `Usage: zarr info STORE [PATH] [--json]
  Describe the array or group at PATH (default: the root): shape, data type, chunk grid,
  key encoding, fill value, codecs, dimension names, attributes, stored size and chunks;
  for groups the children and whether metadata is consolidated.
  --json   print one JSON document`,
  tree: `Usage: zarr tree STORE [PATH]
  Print the hierarchy below PATH (default: the root) as a tree; arrays with shape and data type.`,
  get: `Usage: zarr get STORE PATH [--select SEL] [--format json|npy] [-o FILE]
  Read the values of the array at PATH.
  --select SEL     NumPy-style selection, e.g. "0:10, ::2, 5" or "[1, 4], ..."
  --format FMT     json (default): {"shape", "data_type", "values"}; npy: a NumPy .npy file
  -o, --output F   write to file F instead of standard output`,
  put: `Usage: zarr put STORE PATH --from FILE.npy [options]
  Create the array at PATH (and missing parent groups) from a NumPy .npy file.
  --from FILE            the .npy file to store (required)
  --chunks SHAPE         chunk shape, e.g. 10,10; or JSON with edge lists per dimension
                         for a rectilinear grid, e.g. '[[2,3,5], 4]'
  --codecs JSON          codec chain, e.g. '[{"name":"bytes","configuration":{"endian":"little"}}]'
  --fill-value V         JSON (0, "NaN", "0x7fc00001", [1, 2], "text") or NaN/Infinity/-Infinity/NaT
  --dimension-names N    comma-separated names, e.g. x,y (or a JSON list with nulls)
  --attrs JSON           attributes (a JSON object)
  --data-type T          Zarr data type name or JSON, overriding the one mapped from the .npy dtype
  --overwrite            replace an existing node at PATH`,
};

/** The general usage. */
export const GENERAL_USAGE = `Usage: zarr <command> [arguments]

Commands:
  info STORE [PATH] [--json]          describe an array or group
  tree STORE [PATH]                   print the hierarchy
  get STORE PATH [--select S] [--format json|npy] [-o FILE]
                                      read array values
  put STORE PATH --from FILE.npy [...] create an array from a .npy file

STORE is a local directory. Run "zarr <command> --help" for a command's options.
Exit status: 0 success, 1 error, 2 usage error.`;

/** The options a command accepts: each a string or a flag. */
export type OptionSpec = Record<string, { type: "string" | "boolean"; short?: string }>;

/** Parsed option values: strings for string options, booleans for flags. */
export type OptionValues<O extends OptionSpec> = {
  [K in keyof O]?: O[K]["type"] extends "string" ? string : boolean;
} & { help?: boolean };

/**
 * Writes string options as `--name=value`, so a value that starts with a dash (a
 * selection such as `-1, ::2`) is taken as the value and not as another option.
 */
function attachValues(args: string[], options: OptionSpec): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--") {
      out.push(...args.slice(i));
      break;
    }
    const name = a.startsWith("--")
      ? a.slice(2)
      : Object.keys(options).find((k) => options[k].short !== undefined && a === `-${options[k].short}`);
    if (name !== undefined && options[name]?.type === "string" && i + 1 < args.length) {
      out.push(`--${name}=${args[++i]}`);
    } else out.push(a);
  }
  return out;
}

/**
 * `parseArgs` with `--help`, positional arguments, and its errors turned into
 * {@link UsageError}s for `command`. `values.help` is true when help was asked for.
 */
export function parseCommandArgs<O extends OptionSpec>(
  command: string,
  args: string[],
  options: O,
): { values: OptionValues<O>; positionals: string[] } {
  try {
    const parsed = parseArgs({
      args: attachValues(args, options),
      options: { ...options, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    });
    return { values: parsed.values as OptionValues<O>, positionals: parsed.positionals };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (typeof code === "string" && code.startsWith("ERR_PARSE_ARGS")) {
      throw new UsageError((error as Error).message, command);
    }
    throw error;
  }
}

/** Checks the number of positional arguments. */
export function expectPositionals(command: string, positionals: string[], min: number, max: number): void {
  if (positionals.length < min) throw new UsageError("missing arguments", command);
  if (positionals.length > max) {
    throw new UsageError(`unexpected argument ${JSON.stringify(positionals[max])}`, command);
  }
}
