/**
 * @zarr/store-utils: store wrappers and copying. `copy` moves every key of one store
 * into another (bounded concurrency, progress, cancellation, resume); `CachingStore`
 * caches reads in memory (LRU bounded by bytes); `CountingStore` and `LoggingStore`
 * count or log every call for tests and debugging.
 */
export { copy, DEFAULT_COPY_CONCURRENCY, type CopyOptions, type CopyProgress, type CopyResult } from "./copy.js";
export { CachingStore, CACHE_ENTRY_OVERHEAD, type CachingStoreOptions } from "./caching-store.js";
export { CountingStore } from "./counting-store.js";
export { LoggingStore, formatCall, formatByteRange } from "./logging-store.js";
export { STORE_METHODS, type StoreMethod, type StoreCall, type CallOutcome } from "./instrument.js";
