/**
 * @zarr/spec: the types of Zarr metadata documents, the contracts that stores,
 * codecs, data types, chunk grids, chunk key encodings and storage transformers
 * implement, validating parsers, and the shared error class. No I/O.
 */

export * from "./base64.js";
export * from "./bounded-body.js";
export * from "./byte-ranges.js";
export * from "./byte-sources.js";
export * from "./c-order.js";
export * from "./checksums.js";
export * from "./chunk-grid.js";
export * from "./codec.js";
export * from "./codec-step.js";
export * from "./compose.js";
export * from "./concurrency.js";
export * from "./data-type.js";
export * from "./dimension-projection.js";
export * from "./errors.js";
export * from "./extension.js";
export * from "./http-ranges.js";
export * from "./indexer.js";
export * from "./json.js";
export * from "./json-reformat.js";
export * from "./json-scan.js";
export * from "./json-writer.js";
export * from "./lru-cache.js";
export * from "./metadata.js";
export * from "./ndarray.js";
export * from "./range-batcher.js";
export * from "./range-projections.js";
export * from "./registry-entry.js";
export * from "./rounding.js";
export * from "./storage-transformer.js";
export * from "./store.js";
export * from "./store-settings.js";
export * from "./unparsed-attributes.js";
export * from "./unparsed-threshold.js";
export * from "./wasm-kernel.js";
export * from "./workers.js";
