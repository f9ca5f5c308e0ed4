/**
 * @zarr/store-http: a Zarr store over HTTP(S) with fetch — byte ranges (suffix ranges in
 * one request), retries with backoff, per-request timeouts, optional PUT/DELETE writes.
 * Runs in Node ≥ 20 and browsers (only fetch, Headers, AbortSignal and URL are used);
 * `@zarr/store-http/node` adds `nodeFetch`, a faster transport for Node.js.
 */
export { BODY_INTO, type BodySink, pipeBody } from "./body-into.js";
export { httpStoreEntry } from "./entry.js";
export { HttpStore } from "./http-store.js";
export {
  deleteListed,
  dirOfPages,
  fetchListing,
  isStoreKey,
  keysOfPages,
  type ListDeleteStore,
  type ListingPage,
  type ListingTransport,
  MAX_LISTING_BYTES,
  objectPrefix,
} from "./listing-request.js";
export { ListingObjectStore } from "./listing-store.js";
export type { FetchLike, HttpHeadersOption, HttpRequestInfo, HttpStoreOptions } from "./options.js";
export {
  DEFAULT_MAX_RETRY_DELAY,
  DEFAULT_MAX_VALUE_BYTES,
  DEFAULT_RETRIES,
  DEFAULT_RETRY_DELAY,
  DEFAULT_TIMEOUT,
} from "./options.js";
export { xmlElements, xmlFirstText, xmlText } from "./xml-text.js";
