/** The options of an HttpStore, their defaults, and their validation. */
import { DEFAULT_MAX_METADATA_BYTES, ZarrError } from "@zarr/spec";

/** A `fetch`-compatible function: the global `fetch`, or a wrapper that signs or records requests. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** What a `headers` function is told about the request it adds headers to. */
export interface HttpRequestInfo {
  /** `"GET"`, `"HEAD"`, `"PUT"` or `"DELETE"`. */
  method: string;
  /** The full request URL (base URL, encoded key and the base's query string). */
  url: string;
  /** The store key requested. */
  key: string;
}

/**
 * Extra request headers: a fixed set, or a function called before every request attempt
 * (so a retried request gets a fresh token).
 */
export type HttpHeadersOption = HeadersInit | ((request: HttpRequestInfo) => HeadersInit | Promise<HeadersInit>);

/** Options of `new HttpStore(url, options)`. */
export interface HttpStoreOptions {
  /** Headers sent with every request (e.g. `Authorization`), or a function returning them per request. */
  headers?: HttpHeadersOption;
  /** The fetch implementation. Default: the global `fetch`. */
  fetch?: FetchLike;
  /** Extra `fetch` settings for every request, e.g. `{ credentials: "include" }` or `{ cache: "no-store" }` in browsers. */
  requestInit?: Omit<RequestInit, "method" | "headers" | "body" | "signal">;
  /** Per-attempt time limit in ms, covering the response headers and the body. `0` or `Infinity` disables it. Default 30 000. */
  timeout?: number;
  /**
   * Inactivity limit in ms of a request other than an upload: it fails with `STORE_FAILED`
   * (not retried) when no bytes arrive for this long, waiting for the response or between
   * two pieces of its body, however long the whole transfer takes. Default `Infinity` (off).
   */
  idleTimeout?: number;
  /** How many times a failed request is retried (so `retries + 1` attempts at most). Default 3. */
  retries?: number;
  /** Base of the exponential backoff in ms: retry n waits a random time in `[0, min(maxRetryDelay, retryDelay·2ⁿ))`. Default 100. */
  retryDelay?: number;
  /** Upper bound in ms of any wait between attempts, including one asked for by `Retry-After`. Default 5 000. */
  maxRetryDelay?: number;
  /** Statuses that mean "no such key" (`undefined`). Default `[404]`; `[403, 404]` suits S3-style public buckets. */
  missingStatuses?: readonly number[];
  /** When `false`, `set` sends PUT and `delete` sends DELETE. Default `true` (they throw `STORE_READ_ONLY`). */
  readOnly?: boolean;
  /**
   * Largest metadata document (`zarr.json`, `.zarray`, `.zgroup`, `.zattrs`, `.zmetadata`)
   * accepted, in bytes after any content coding is undone. A longer body (an endless
   * `zarr.json`) is cut off with `STORE_TOO_LARGE`. Default 64 MiB.
   */
  maxMetadataBytes?: number;
  /**
   * Largest body read for any other key, in bytes after any content coding (gzip...) is
   * undone: a whole value, the rest of a value for an open range, or what is streamed past
   * while looking for the last bytes of a value when a server ignores `Range`. More is cut
   * off with `STORE_TOO_LARGE`. Default 2 GiB.
   */
  maxValueBytes?: number;
  /**
   * Bounded range reads of one key asked for in the same turn of the event loop (many map
   * tiles reading one shard) are merged into one request when at most `gap` bytes apart
   * (default 64 KiB), up to `maxBytes` per request (default 16 MiB); identical ranges are
   * read once. `false` sends every range as its own request.
   */
  coalesce?: { gap?: number; maxBytes?: number } | false;
}

/** The options with defaults filled in. */
export interface HttpStoreSettings {
  headers: HttpHeadersOption | undefined;
  fetch: FetchLike;
  requestInit: Omit<RequestInit, "method" | "headers" | "body" | "signal">;
  timeout: number;
  idleTimeout: number;
  retries: number;
  retryDelay: number;
  maxRetryDelay: number;
  missingStatuses: ReadonlySet<number>;
  readOnly: boolean;
  maxMetadataBytes: number;
  maxValueBytes: number;
  coalesce: HttpStoreOptions["coalesce"];
}

/** Default per-attempt time limit: 30 s. */
export const DEFAULT_TIMEOUT = 30_000;
/** Default number of retries after a failed attempt: 3 (4 attempts in all). */
export const DEFAULT_RETRIES = 3;
/** Default backoff base: 100 ms (waits grow 100, 200, 400... ms at most, randomised). */
export const DEFAULT_RETRY_DELAY = 100;
/** Default cap of a wait between attempts (backoff or `Retry-After`): 5 s. */
export const DEFAULT_MAX_RETRY_DELAY = 5_000;
/** Default cap of any body other than a metadata document: 2 GiB. */
export const DEFAULT_MAX_VALUE_BYTES = 2 ** 31;

// Looked up at call time so a fetch installed (or mocked) after the store was made is used.
const globalFetch: FetchLike = (url, init) => globalThis.fetch(url, init);

function invalid(name: string, expected: string, value: unknown): never {
  throw new ZarrError("INVALID_ARGUMENT", `HttpStore option "${name}" must be ${expected}, got ${String(value)}`);
}

function nonNegative(name: string, value: unknown, fallback: number, { integer = false, infinite = false } = {}): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || Number.isNaN(value) || value < 0) invalid(name, "a non-negative number", value);
  if (value === Infinity) {
    if (!infinite) invalid(name, "a finite number", value);
    return value;
  }
  if (integer && !Number.isSafeInteger(value)) invalid(name, "a non-negative integer", value);
  return value;
}

function positiveOrInfinite(name: string, value: unknown): number {
  if (value === undefined) return Infinity;
  if (typeof value !== "number" || Number.isNaN(value) || value <= 0) invalid(name, "a positive number (or Infinity)", value);
  return value;
}

function positiveInteger(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) invalid(name, "a positive integer", value);
  return value;
}

/** Validates the options (`INVALID_ARGUMENT` naming the bad one) and fills in the defaults. */
export function resolveSettings(options: HttpStoreOptions = {}): HttpStoreSettings {
  if (typeof options !== "object" || options === null) invalid("options", "an object", options);
  const { headers, fetch, requestInit, missingStatuses, readOnly } = options;
  if (fetch !== undefined && typeof fetch !== "function") invalid("fetch", "a function", fetch);
  if (headers !== undefined && (headers === null || (typeof headers !== "object" && typeof headers !== "function"))) {
    invalid("headers", "a headers object or a function", headers);
  }
  if (requestInit !== undefined && (typeof requestInit !== "object" || requestInit === null)) {
    invalid("requestInit", "an object", requestInit);
  }
  if (readOnly !== undefined && typeof readOnly !== "boolean") invalid("readOnly", "a boolean", readOnly);
  if (
    missingStatuses !== undefined &&
    (!Array.isArray(missingStatuses) || !missingStatuses.every((s) => Number.isInteger(s) && s >= 400 && s <= 599))
  ) {
    invalid("missingStatuses", "an array of HTTP error statuses (400-599)", missingStatuses);
  }
  const timeout = nonNegative("timeout", options.timeout, DEFAULT_TIMEOUT, { infinite: true });
  return {
    headers,
    fetch: fetch ?? globalFetch,
    requestInit: requestInit ?? {},
    timeout: timeout === 0 ? Infinity : timeout,
    idleTimeout: positiveOrInfinite("idleTimeout", options.idleTimeout),
    retries: nonNegative("retries", options.retries, DEFAULT_RETRIES, { integer: true }),
    retryDelay: nonNegative("retryDelay", options.retryDelay, DEFAULT_RETRY_DELAY),
    maxRetryDelay: nonNegative("maxRetryDelay", options.maxRetryDelay, DEFAULT_MAX_RETRY_DELAY),
    missingStatuses: new Set(missingStatuses ?? [404]),
    readOnly: readOnly ?? true,
    maxMetadataBytes: positiveInteger("maxMetadataBytes", options.maxMetadataBytes, DEFAULT_MAX_METADATA_BYTES),
    maxValueBytes: positiveInteger("maxValueBytes", options.maxValueBytes, DEFAULT_MAX_VALUE_BYTES),
    // Checked by the range reader (loaded on the first range read), which alone uses it.
    coalesce: options.coalesce,
  };
}
