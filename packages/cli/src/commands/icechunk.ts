/** `zarr icechunk log REPO [--json]`: an Icechunk repository's history. */
import type { Store } from "@zarr/spec";
import type { CliIO } from "../cli-io.js";
import { printable } from "../printable.js";
import { readLimits } from "../read-limits.js";
import { openStoreArg } from "../store-arg.js";
import { expectPositionals, parseCommandArgs, USAGE, UsageError } from "../usage.js";

/** Runs `zarr icechunk`. */
export async function icechunkCommand(args: string[], io: CliIO): Promise<void> {
  const { values, positionals } = parseCommandArgs("icechunk", args, { json: { type: "boolean" } });
  if (values.help) {
    await io.write(`${USAGE.icechunk}\n`);
    return;
  }
  expectPositionals("icechunk", positionals, 2, 2);
  if (positionals[0] !== "log") throw new UsageError(`unknown icechunk subcommand ${JSON.stringify(positionals[0])}`, "icechunk");
  const limits = readLimits("icechunk", values);
  const { IcechunkRepository, splitIcechunkLocation, versionOf } = await import("@zarr/store-icechunk");
  const arg = positionals[1];
  const location = arg.startsWith("icechunk+") ? splitIcechunkLocation(arg) : undefined;
  const storage: Store = await openStoreArg(location?.repository ?? arg, { writable: false, headers: values.header, limits });
  const repo = await IcechunkRepository.open(storage);
  const history = await repo.ancestry(versionOf(location ?? {}));
  if (values.json) {
    const rows = history.map((s) => ({ id: s.id, parent: s.parentId ?? null, time: s.flushedAt.toISOString(), message: s.message }));
    await io.write(`${JSON.stringify(rows, null, 2)}\n`);
    return;
  }
  await io.write(history.map((s) => `${s.id}  ${s.flushedAt.toISOString()}  ${printable(s.message)}\n`).join(""));
}
