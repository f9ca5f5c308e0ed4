/**
 * Asking the registry's `"format"` entries (Zarr v2, the early v3 draft, ...; see
 * node-format.ts for the contract): which one has a node at a path, and which one creates
 * nodes of a given Zarr version. Zarr v3 (`zarr.json`) is always tried first and created
 * by core itself.
 */
import type { Store } from "@zarr/spec";
import type { FormatEntry, NodeEntry } from "./node-format.js";
import type { Registry } from "./registry.js";
import { throwIfAborted, ZarrError } from "./up-front.js";

/** The registry's format entries, loaded (the registry keeps them by a minimal shape; what it accepts as a loaded format is a `FormatEntry`). */
async function formatEntries(registry: Registry): Promise<FormatEntry[]> {
  return (await registry.formats()) as FormatEntry[];
}

/**
 * Asks the registry's `"format"` entries, in order, for the node at `path`; the first
 * that has one answers.
 */
export async function readFormatEntry(store: Store, path: string, registry: Registry, signal?: AbortSignal): Promise<NodeEntry | undefined> {
  for (const format of await formatEntries(registry)) {
    throwIfAborted(signal);
    const entry = await format.read(store, path, { registry, signal });
    if (entry !== undefined) return entry;
  }
  return undefined;
}

/**
 * The first format entry that creates nodes of Zarr version `zarrFormat` with `hook`
 * (`"createArray"` or `"createGroup"`), or an `UNSUPPORTED` error naming the node and how
 * to register such a format.
 */
export async function creatingFormat<K extends "createArray" | "createGroup">(
  registry: Registry,
  zarrFormat: 2,
  hook: K,
  path: string,
): Promise<FormatEntry & Required<Pick<FormatEntry, K>>> {
  for (const format of await formatEntries(registry)) {
    if (format.zarrFormat === zarrFormat && typeof format[hook] === "function") return format as FormatEntry & Required<Pick<FormatEntry, K>>;
  }
  const kind = hook === "createArray" ? "array" : "group";
  throw new ZarrError(
    "UNSUPPORTED",
    `Cannot create the Zarr v${zarrFormat} ${kind} "${path || "/"}": the registry holds no format that writes Zarr v${zarrFormat}. ` +
      "Register v2Format from @zarr/v2-compat (createRegistry([v2Format]) or defaultRegistry.add(v2Format)), or use the registry of @zarr/all.",
  );
}
