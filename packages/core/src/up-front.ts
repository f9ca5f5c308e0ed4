/**
 * The up-front modules (those `open` and `get` import statically) that lazily loaded
 * modules use, re-exported from this one module: lazily loaded modules of @zarr/core
 * import them from here, never from their own modules.
 *
 * Why (bundle size and requests): esbuild, with code splitting, puts each module into a
 * chunk by the set of entry points (the app, and every `import()` target) that reach it.
 * An up-front module that some lazy module imports directly is reached by the app and
 * that lazy module, so it lands in a chunk of its own, which the app then loads up front
 * as a separate file. Imported through this module instead, every up-front module listed
 * here is reached by the same entry points (the app and every lazy module that imports
 * from here), so they share one chunk: one file and one set of imports instead of a
 * dozen. `scripts/bundle-sizes.mjs` checks the files a first read loads (a lazy module
 * importing an up-front module directly adds one).
 */
// From @zarr/spec: what lazy modules use of the spec modules that load up front, and
// `projectRange` (spec's indexer.js, which the selection modules reach through spec's
// dimension projections), so that those modules join the same chunk.
// The spec modules every read loads (errors.js, json.js, store.js): lazy modules take them
// from here too, so that they are reached by the same entry points as the rest.
export {
  decodeJsonBytes,
  describeJson,
  formatJsonPath,
  isListable,
  MetadataError,
  parseJson,
  projectRange,
  shapeSize,
  throwIfAborted,
  workerModuleUrl,
  ZarrError,
} from "@zarr/spec";
export { CORE_PACKAGE } from "./data-types/core-package.js";
export { MACHINE_LITTLE_ENDIAN } from "./data-types/machine-endian.js";
export { readFailed, storeSource } from "./engine/store-source.js";
export { checkKeys, GridBase, positiveInt, RegularPartition } from "./grid-parts.js";
export { IMPLICIT_GROUP } from "./implicit-group.js";
export { checkElementFits, elementMemoryBytes, memoryLimits, SLOT_BYTES } from "./limits.js";
export { metadataKey, nodePrefix } from "./paths.js";
export { type DecodingStages, failed, type Stages, stageSpecs } from "./pipeline-stages.js";
export { parsePlainMetadata } from "./plain-metadata.js";
export { type DimSelection, invalid, type ResolvedDim, resolveIndex } from "./selection.js";
