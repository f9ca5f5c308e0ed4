/** `zarr geozarr migrate`: upgrades older GeoZarr declarations in place, or shows what would change. */

import { normalizePath } from "@zarr/core";
import { loadHierarchy, migrate } from "@zarr/geozarr";
import { type JsonObject, stringifyJson } from "@zarr/spec";
import type { CliIO } from "../../cli-io.js";
import { printable } from "../../printable.js";
import { readLimits } from "../../read-limits.js";
import { cliRegistry } from "../../registry.js";
import { openStoreArg } from "../../store-arg.js";
import { expectPositionals, parseCommandArgs, USAGE } from "../../usage.js";
import { parseConventionsOption } from "./shared.js";

/** Runs `zarr geozarr migrate STORE [PATH] [--dry-run] [--remove-legacy] [--conventions v1|v0.1] [--json]`. */
export async function migrateCommand(args: string[], io: CliIO): Promise<void> {
  const { values, positionals } = parseCommandArgs("geozarr", args, {
    "dry-run": { type: "boolean", short: "n" },
    "remove-legacy": { type: "boolean" },
    conventions: { type: "string" },
    json: { type: "boolean" },
  });
  if (values.help) {
    await io.write(`${USAGE.geozarr}\n`);
    return;
  }
  const limits = readLimits("geozarr", values);
  expectPositionals("geozarr", positionals, 1, 2);
  const conventions = parseConventionsOption(values.conventions);
  const dryRun = values["dry-run"] === true;
  const store = await openStoreArg(positionals[0], { writable: !dryRun, headers: values.header, limits });
  const h = await loadHierarchy(store, { path: normalizePath(positionals[1] ?? ""), registry: cliRegistry() });
  const report = await migrate(h, { dryRun, removeLegacy: values["remove-legacy"] === true, conventions, registry: cliRegistry() });
  if (values.json) {
    await io.write(`${stringifyJson(report as unknown as JsonObject, 2)}\n`);
    return;
  }
  const lines = [`${dryRun ? "would change" : "changed"} ${report.changes.length} node(s):`];
  for (const c of report.changes) {
    lines.push(`  ${c.path || "/"}  [${c.source}] ${c.description}`);
    lines.push(`      set ${Object.keys(c.set).join(", ")}${c.remove.length > 0 ? `; remove ${c.remove.join(", ")}` : ""}`);
  }
  for (const n of report.notes) lines.push(`note: ${n}`);
  const v = report.validation;
  lines.push(`after migration: ${v.valid ? "valid" : "NOT valid"} (${v.counts.error} error(s), ${v.counts.warning} warning(s))`);
  await io.write(`${lines.map(printable).join("\n")}\n`);
}

