/**
 * One HTTP request of an `HttpStore`, with retries, timeouts and the store's headers
 * (`request`), and the plain whole-value GET every read needs (`getWhole`). The store's
 * other operations (ranges, sizes, scatter reads, versions, writes) are in modules it
 * loads on first use, which share this.
 */
import { isMetadataKey, ZarrError } from "@zarr/spec";
import { pipeBody, watchBody } from "./body-into.js";
import type { HttpStoreSettings } from "./options.js";
import { declaredLength, discardBody, hasContentCoding, pipeExactBody, readBody } from "./read-body.js";
import type { FailedAttempt } from "./request-failure.js";
import type { RequestSpec } from "./request-spec.js";
import { attemptSignal } from "./signals.js";
import { type BaseUrl, displayUrl, keyUrl } from "./store-url.js";
import { TransientError } from "./transient-error.js";

export type { RequestSpec } from "./request-spec.js";

/** A response handler's answer for a status it does not handle itself: the generic status rules apply. */
export const UNHANDLED: unique symbol = Symbol("unhandled status");

/** Turns a response into a result, or UNHANDLED (see `request`). */
export type Handler<T> = (response: Response) => Promise<T | typeof UNHANDLED>;

/** What every request of one store uses: its base URL and settings. */
export interface Transport {
  /** What the lazily loaded modules use of the modules every read loads (see {@link KIT}). */
  readonly kit: Kit;
  readonly base: BaseUrl;
  readonly settings: HttpStoreSettings;
}

/**
 * Loads request-failure.ts: what a failed attempt means (the error, or the wait before the
 * next attempt) and the errors of aborted requests and failed headers. Reads that succeed
 * never load it (bundle size); one import site, so its chunk's name ships once.
 */
const failure = () => import("./request-failure.js");

/** True for a 2xx status. */
export const isSuccess = (status: number): boolean => status >= 200 && status <= 299;

/** True when `response` means "no such key" (its status is one of the store's `missingStatuses`). */
export function isMissing(t: Transport, response: Response): boolean {
  return t.settings.missingStatuses.has(response.status);
}

/** The most bytes any body for `key` may have (a metadata document or another value). */
export function limitFor(t: Transport, key: string): number {
  return isMetadataKey(key) ? t.settings.maxMetadataBytes : t.settings.maxValueBytes;
}

/**
 * The whole value of `key` (on its own ArrayBuffer, byteOffset 0), or `undefined` when
 * missing: one GET, the body bounded by `limitFor`.
 */
export async function getWhole(t: Transport, key: string, signal: AbortSignal | undefined): Promise<Uint8Array | undefined> {
  const url = keyUrl(t.base, key);
  const limit = limitFor(t, key);
  return request(t, { method: "GET", key, url, signal }, async (response) => {
    if (isMissing(t, response)) return undefined;
    if (response.status === 200 || response.status === 203) return readBody(response, declaredLength(response), limit);
    return UNHANDLED;
  });
}

/** The headers of one attempt of `spec`: the store's (a function's are asked anew), credentials, range and conditions. */
async function requestHeaders(t: Transport, spec: RequestSpec): Promise<Headers | undefined> {
  const option = t.settings.headers;
  const basicAuth = t.base.basicAuth;
  if (option === undefined && basicAuth === undefined && spec.range === undefined && spec.body === undefined && spec.ifMatch === undefined && spec.ifNoneMatchAny !== true) {
    return undefined;
  }
  let init: HeadersInit | undefined;
  let headers: Headers;
  try {
    init = typeof option === "function" ? await option({ method: spec.method, url: spec.url, key: spec.key }) : option;
    headers = new Headers(init);
  } catch (error) {
    if (error instanceof ZarrError) throw error;
    throw (await failure()).headersFailed(t, spec, error);
  }
  if (basicAuth !== undefined && !headers.has("authorization")) headers.set("authorization", basicAuth);
  if (spec.body !== undefined && !headers.has("content-type")) headers.set("content-type", "application/octet-stream");
  if (spec.range !== undefined) headers.set("range", spec.range);
  if (spec.ifMatch !== undefined) headers.set("if-match", spec.ifMatch);
  if (spec.ifNoneMatchAny === true) headers.set("if-none-match", "*");
  return headers;
}

/**
 * Runs one request with retries. `handle` turns a response into the result, throws
 * `TransientError` for a response worth retrying, or returns UNHANDLED to apply the
 * generic rules: retryable statuses are retried, others fail at once.
 */
export async function request<T>(t: Transport, spec: RequestSpec, handle: Handler<T>): Promise<T> {
  const { fetch, requestInit, timeout } = t.settings;
  // Uploads send for a long time before the first byte comes back: only other requests wait idle.
  const idleTimeout = spec.body === undefined ? t.settings.idleTimeout : Infinity;
  const { signal } = spec;
  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted) throw (await failure()).aborted(t, spec, signal);
    const headers = await requestHeaders(t, spec);
    const limit = attemptSignal(signal, timeout, idleTimeout);
    let response: Response | undefined;
    let failed: FailedAttempt;
    try {
      response = await fetch(spec.url, { ...requestInit, method: spec.method, headers, body: spec.body, signal: limit.signal });
      if (idleTimeout !== Infinity) {
        limit.touch();
        watchBody(response, limit.touch);
      }
      const result = await handle(response);
      discardBody(response); // whatever the handler did not read
      if (result !== UNHANDLED) return result;
      failed = { response, limit, idleTimeout };
    } catch (error) {
      if (response !== undefined) discardBody(response);
      failed = { response, error, limit, idleTimeout };
    } finally {
      limit.dispose();
    }
    // Throws what ends the request, else waits before the next attempt.
    await (await failure()).afterFailure(t, spec, attempt, failed);
  }
}

/**
 * The functions (and the error class) of the modules every read loads that the store's
 * lazily loaded modules (ranges, sizes, scatter reads, writes, and their helpers) use:
 * handed to them on the transport (`Transport.kit`, bound by kit.ts) instead of imported.
 *
 * Why (bundle size and requests): with code splitting, esbuild puts modules that the app
 * and some lazily loaded modules both import into a chunk of their own, which a first read
 * loads as one more file. Handed over at run time, these stay in the app's chunk.
 */
export const KIT = {
  request,
  getWhole,
  limitFor,
  isMissing,
  isSuccess,
  UNHANDLED,
  keyUrl,
  displayUrl,
  declaredLength,
  readBody,
  hasContentCoding,
  pipeExactBody,
  pipeBody,
  TransientError,
} as const;

/** The type of {@link KIT}. */
export type Kit = typeof KIT;
