/** `zarr consolidate STORE [PATH]`: one metadata document for a whole hierarchy (Zarr v3 or v2). */
import { consolidateMetadata, normalizePath } from "@zarr/core";
import type { CliIO } from "../cli-io.js";
import { printable } from "../printable.js";
import { readLimits } from "../read-limits.js";
import { cliRegistry } from "../registry.js";
import { openStoreArg } from "../store-arg.js";
import { expectPositionals, parseCommandArgs, USAGE } from "../usage.js";

/**
 * Runs `zarr consolidate`: writes the metadata of every node below the group at PATH into
 * the group's own document, as zarr-python does: `consolidated_metadata` in a Zarr v3
 * group's `zarr.json`, `.zmetadata` beside a Zarr v2 group's `.zgroup`. Readers then open
 * the hierarchy with one request, and `zarr tree` works over plain HTTP, which cannot list.
 */
export async function consolidateCommand(args: string[], io: CliIO): Promise<void> {
  const { values, positionals } = parseCommandArgs("consolidate", args, {});
  if (values.help) {
    await io.write(`${USAGE.consolidate}\n`);
    return;
  }
  const limits = readLimits("consolidate", values);
  expectPositionals("consolidate", positionals, 1, 2);
  const path = normalizePath(positionals[1] ?? "");
  const store = await openStoreArg(positionals[0], { writable: true, headers: values.header, limits });
  const group = await consolidateMetadata(store, path, { registry: cliRegistry() });
  const document = group.zarrFormat === 2 ? ".zmetadata" : "zarr.json";
  const count = group.consolidated?.size ?? 0;
  const at = path === "" ? document : `${path}/${document}`;
  await io.write(`Consolidated the metadata of ${count} node${count === 1 ? "" : "s"} below /${printable(path)} into ${printable(at)} (Zarr v${group.zarrFormat})\n`);
}
