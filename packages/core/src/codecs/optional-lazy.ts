/**
 * zarrs' `optional` data type and codec as lazy registry entries: the code loads the first
 * time an array uses them. Core's own registries leave `optional` out (it is an extension
 * few arrays use); `@zarr/all` and the `zarr` command add these entries.
 */
import type { RegistryEntry } from "@zarr/spec";
import { coreDataTypeEntries } from "../data-types/builtin.js";

/**
 * The lazy entries of zarrs' `optional` data type (alias `zarrs.optional`) and codec.
 *
 * @example
 * ```ts
 * import { createRegistry, lazyOptionalEntries } from "@zarr/core";
 * const registry = createRegistry([...lazyOptionalEntries]);
 * ```
 */
export const lazyOptionalEntries: readonly RegistryEntry[] = [
  {
    type: "data_type",
    name: "optional",
    aliases: ["zarrs.optional"],
    package: "@zarr/core",
    lazy: true,
    // Given the built-in list to load the types it wraps from (see load-entries.ts).
    load: () => import("../data-types/optional.js").then((m) => m.loadOptionalEntry(coreDataTypeEntries)),
  },
  { type: "codec", name: "optional", package: "@zarr/core", lazy: true, load: () => import("./optional.js").then((m) => m.optionalCodec) },
];
