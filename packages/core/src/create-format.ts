/**
 * Creating nodes of another Zarr version (`createArray(store, path, { zarrFormat: 2, … })`):
 * the options are checked against the version, then the registry's format entry that
 * writes it (Zarr v2: `v2Format` of @zarr/v2-compat) writes the documents, and the node
 * it describes is opened like any other.
 */
import { type Attributes, type JsonInputObject, jsonFromInput, type Store, ZarrError } from "@zarr/spec";
import { creatingFormat } from "./formats.js";
import type { CreateArrayOptions, CreateNodeOptions } from "./node-options.js";
import type { ZarrArray, ZarrGroup } from "./nodes.js";
import { entryToNodeAt } from "./open.js";
import type { Registry } from "./registry.js";

/** Options that only Zarr v3 arrays take, and those only Zarr v2 arrays take. */
const V3_ONLY = ["codecs", "chunkShapes", "chunkGrid", "storageTransformers"] as const;
const V2_ONLY = ["compressor", "filters", "order"] as const;

/**
 * The Zarr version `options` ask for (default 3), after checking that the array options
 * given belong to it: `INVALID_ARGUMENT` naming the option otherwise.
 */
export function requestedZarrFormat(options: CreateNodeOptions | CreateArrayOptions, path: string): 2 | 3 {
  const zarrFormat = options.zarrFormat ?? 3;
  if (zarrFormat !== 2 && zarrFormat !== 3) {
    throw new ZarrError("INVALID_ARGUMENT", `zarrFormat must be 2 or 3, got ${JSON.stringify(zarrFormat)} (creating "${path || "/"}")`);
  }
  const given = options as Partial<Record<string, unknown>>;
  const foreign = zarrFormat === 2 ? V3_ONLY : V2_ONLY;
  const wrong = foreign.find((k) => given[k] !== undefined);
  if (wrong !== undefined) {
    const hint = zarrFormat === 2 ? "Zarr v2 arrays take compressor and filters (numcodecs configurations)" : "pass zarrFormat: 2 for a Zarr v2 array";
    const other = zarrFormat === 2 ? 3 : 2;
    throw new ZarrError("INVALID_ARGUMENT", `${wrong} is a Zarr v${other} option; "${path || "/"}" is created as Zarr v${zarrFormat} (${hint})`);
  }
  const kenc = (options as CreateArrayOptions).chunkKeyEncoding;
  if (zarrFormat === 2 && kenc !== undefined && kenc.name !== "v2") {
    throw new ZarrError("INVALID_ARGUMENT", `Zarr v2 arrays have the "v2" chunk key encoding, not "${kenc.name}" ("${path || "/"}")`);
  }
  return zarrFormat;
}

/** `{ attributes }` as the format stores them (properties set to `undefined` dropped), or nothing when none were given. */
function storedAttributes(attributes: JsonInputObject | undefined): { attributes?: Attributes } {
  return attributes === undefined ? {} : { attributes: jsonFromInput(attributes) as Attributes };
}

/** Creates a group through the registry's format for `zarrFormat` (`UNSUPPORTED` when there is none). */
export async function createGroupThroughFormat(
  store: Store,
  path: string,
  zarrFormat: 2,
  registry: Registry,
  options: CreateNodeOptions,
): Promise<ZarrGroup> {
  const format = await creatingFormat(registry, zarrFormat, "createGroup", path);
  const { zarrFormat: _, registry: __, attributes, ...rest } = options;
  const entry = await format.createGroup(store, path, { ...rest, ...storedAttributes(attributes), registry });
  return (await entryToNodeAt(store, entry, { registry })) as ZarrGroup;
}

/** Creates an array through the registry's format for `zarrFormat` (`UNSUPPORTED` when there is none). */
export async function createArrayThroughFormat(
  store: Store,
  path: string,
  zarrFormat: 2,
  registry: Registry,
  options: CreateArrayOptions,
): Promise<ZarrArray> {
  const format = await creatingFormat(registry, zarrFormat, "createArray", path);
  const { zarrFormat: _, registry: __, chunkCache, writeEmptyChunks, attributes, ...rest } = options;
  const entry = await format.createArray(store, path, { ...rest, ...storedAttributes(attributes), registry });
  return (await entryToNodeAt(store, entry, { registry, chunkCache, writeEmptyChunks })) as ZarrArray;
}
