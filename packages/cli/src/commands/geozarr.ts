/**
 * `zarr geozarr validate|info|pyramid|migrate|from-geotiff`: the GeoZarr conventions from
 * the command line, on top of @zarr/geozarr. Each subcommand lives in `./geozarr/`.
 */
import type { CliIO } from "../cli-io.js";
import { USAGE, UsageError } from "../usage.js";
import { fromGeoTiffCommand } from "./geozarr/from-geotiff.js";
import { infoCommand } from "./geozarr/info.js";
import { migrateCommand } from "./geozarr/migrate.js";
import { pyramidCommand } from "./geozarr/pyramid.js";
import { validateCommand } from "./geozarr/validate.js";

const SUBCOMMANDS = {
  validate: validateCommand,
  info: infoCommand,
  pyramid: pyramidCommand,
  migrate: migrateCommand,
  "from-geotiff": fromGeoTiffCommand,
} as const;

/** Runs `zarr geozarr`. */
export async function geozarrCommand(args: string[], io: CliIO): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === "--help" || sub === "-h") {
    if (sub === undefined) throw new UsageError("missing subcommand (validate, info, pyramid, migrate or from-geotiff)", "geozarr");
    await io.write(`${USAGE.geozarr}\n`);
    return;
  }
  const run = Object.hasOwn(SUBCOMMANDS, sub) ? SUBCOMMANDS[sub as keyof typeof SUBCOMMANDS] : undefined;
  if (run === undefined) throw new UsageError(`unknown subcommand ${JSON.stringify(sub)} (validate, info, pyramid, migrate or from-geotiff)`, "geozarr");
  return run(rest, io);
}
