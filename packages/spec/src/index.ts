/**
 * @zarr/spec: the types of Zarr metadata documents, the contracts that stores,
 * codecs, data types, chunk grids, chunk key encodings and storage transformers
 * implement, validating parsers, and the shared error class. No I/O.
 */
export * from "./errors.js";
export * from "./json.js";
export * from "./extension.js";
export * from "./metadata.js";
export * from "./data-type.js";
export * from "./ndarray.js";
export * from "./c-order.js";
export * from "./indexer.js";
export * from "./compose.js";
export * from "./store.js";
export * from "./byte-ranges.js";
export * from "./codec.js";
export * from "./chunk-grid.js";
export * from "./storage-transformer.js";
export * from "./registry-entry.js";
export * from "./concurrency.js";
export * from "./workers.js";
export * from "./checksums.js";
export * from "./lru-cache.js";
