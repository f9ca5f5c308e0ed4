/**
 * The `zarr-v2` format entry of the registry: it reads Zarr v2 nodes for `open`,
 * `children`, `walk` (see v2-format.ts) and creates them for @zarr/core's `createGroup`
 * and `createArray` called with `zarrFormat: 2` (see create.ts).
 */
import type { FormatCreateArrayOptions, FormatEntry, FormatReadOptions } from "@zarr/core";
import { type Store, ZarrError } from "@zarr/spec";
import { type CreateArrayV2Options, writeArrayV2, writeGroupV2 } from "./create.js";
import { readV2Entry } from "./v2-format.js";

/**
 * `createArrayV2`'s options for @zarr/core's `createArray` options: `chunkShape` is
 * `chunks`, the `v2` key encoding's separator is `dimensionSeparator`; v3-only options
 * (`codecs`, `chunkShapes`, `chunkGrid`) are refused.
 */
export function v2ArrayOptions(path: string, options: FormatCreateArrayOptions): CreateArrayV2Options {
  for (const k of ["codecs", "chunkShapes", "chunkGrid"] as const) {
    if (options[k] !== undefined) {
      throw new ZarrError("INVALID_ARGUMENT", `${k} is a Zarr v3 option; the Zarr v2 array "${path || "/"}" takes compressor and filters`);
    }
  }
  const { chunkShape, chunkKeyEncoding, compressor, filters, dimensionNames, ...rest } = options;
  if (chunkKeyEncoding !== undefined && chunkKeyEncoding.name !== "v2") {
    throw new ZarrError("INVALID_ARGUMENT", `Zarr v2 arrays have the "v2" chunk key encoding, not "${chunkKeyEncoding.name}" ("${path || "/"}")`);
  }
  const out: CreateArrayV2Options = { ...rest };
  if (chunkShape !== undefined) out.chunks = chunkShape;
  // Either form (core passes the short one; the metadata one has a configuration).
  const kenc = chunkKeyEncoding as { separator?: "/" | "."; configuration?: { separator?: "/" | "." } } | undefined;
  const separator = kenc?.separator ?? kenc?.configuration?.separator;
  if (separator !== undefined) out.dimensionSeparator = separator;
  if (compressor !== undefined) out.compressor = compressor;
  if (filters !== undefined) out.filters = filters === null ? null : [...filters];
  // Names that are not strings are refused by createArrayV2 (v2 keeps them in _ARRAY_DIMENSIONS).
  if (dimensionNames !== undefined) out.dimensionNames = dimensionNames as readonly string[];
  return out;
}

/**
 * The `zarr-v2` format entry. Register it (`createRegistry([v2Format])`, or use
 * @zarr/all) and `open` reads Zarr v2 wherever a path has no `zarr.json`, and
 * `createArray`/`createGroup` with `zarrFormat: 2` write Zarr v2.
 *
 * @example
 * ```ts
 * const registry = createRegistry([...codecs, v2Format]);
 * const arr = await openArray(store, "t2m", { registry }); // .zarray + .zattrs
 * const t = await createArray(store, "t", { zarrFormat: 2, shape: [4], dataType: "int16", compressor: null, registry });
 * ```
 */
export const v2Format: FormatEntry = {
  type: "format",
  name: "zarr-v2",
  package: "@zarr/v2-compat",
  zarrFormat: 2,
  read: (store: Store, path: string, options: FormatReadOptions) =>
    readV2Entry(store, path, { registry: options.registry, signal: options.signal }),
  createGroup: async (store, path, options) => writeGroupV2(store, path, options),
  createArray: async (store, path, options) => writeArrayV2(store, path, v2ArrayOptions(path, options)),
};
