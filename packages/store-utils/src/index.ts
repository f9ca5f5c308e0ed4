/**
 * @zarr/store-utils: store wrappers and copying. `copy` moves every key of one store
 * into another (bounded concurrency, progress, cancellation, resume); `CachingStore`
 * caches reads in memory (LRU bounded by bytes); `CountingStore` and `LoggingStore`
 * count or log every call for tests and debugging. `planParts`, `runPart`, `initJob` and
 * `finalizeJob` split a job (`copyJob` here; conversions and pyramids in their own
 * packages) into parts that any batch scheduler runs, with the target store as the only
 * shared state.
 */

export { CACHE_ENTRY_OVERHEAD, CachingStore, type CachingStoreOptions } from "./caching-store.js";
export { type CopyOptions, type CopyProgress, type CopyResult, copy, DEFAULT_COPY_CONCURRENCY } from "./copy.js";
export { CountingStore } from "./counting-store.js";
export { type CallOutcome, STORE_METHODS, type StoreCall, type StoreMethod } from "./instrument.js";
export { formatByteRange, formatCall, LoggingStore } from "./logging-store.js";
export * from "./parts/index.js";
