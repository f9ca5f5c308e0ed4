/** The HTTP store: Zarr keys as URLs under a base URL, read (and optionally written) with fetch. */
import {
  type ByteRange,
  checkReadIntoRanges,
  isMetadataKey,
  type ReadableStore,
  type ReadIntoRange,
  type StoreRequestOptions,
  storeChanged,
  type VersionedBytes,
  type VersionedReadOptions,
  type WritableStore,
  ZarrError,
} from "@zarr/spec";
import { BodyLimitExceeded, countBody } from "./bounded-body.js";
import { bytesFromUnsatisfiable, parseContentRange, planRange, rangeHeader, unsatisfiedTotal } from "./byte-ranges.js";
import { type HttpStoreOptions, type HttpStoreSettings, resolveSettings } from "./options.js";
import { bytesOfPartialAnswer, bytesOfWholeAnswer } from "./range-answer.js";
import { declaredLength, discardBody, hasContentCoding, readBody } from "./read-body.js";
import { isRetryableStatus, parseRetryAfter, retryWait } from "./retry-policy.js";
import { scatterBody, scatterWhole, sortedByOffset } from "./scatter-body.js";
import { attemptSignal, sleep } from "./signals.js";
import { type BaseUrl, displayUrl, keyUrl, parseBaseUrl } from "./store-url.js";
import { TransientError } from "./transient-error.js";
import { strongEtag } from "./versions.js";

/** A response handler's answer for a status it does not handle itself: the generic status rules apply. */
const UNHANDLED: unique symbol = Symbol("unhandled status");
/** `getSize` could not learn the size from this response; try the next way. */
const UNKNOWN_SIZE: unique symbol = Symbol("unknown size");

type Handler<T> = (response: Response) => Promise<T | typeof UNHANDLED>;

interface RequestSpec {
  method: "GET" | "HEAD" | "PUT" | "DELETE";
  key: string;
  url: string;
  range?: string;
  /** An ETag for `If-Match`: the server answers 412 unless the value still has it. */
  ifMatch?: string;
  /** `If-None-Match: *` on a PUT: the server answers 412 when the key has a value already. */
  ifNoneMatchAny?: boolean;
  body?: Uint8Array<ArrayBuffer>;
  signal: AbortSignal | undefined;
}

function describeStatus(response: Response): string {
  return `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // undici reports "fetch failed" and puts the reason (ECONNREFUSED, "other side closed"...) in cause.
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return `${error.message}${cause}`;
}

const isSuccess = (status: number): boolean => status >= 200 && status <= 299;

/**
 * A Zarr store over HTTP(S) using `fetch` (Node ≥ 20 and browsers). Keys are
 * percent-encoded path segments under the base URL. Reads use GET with `Range` for byte
 * ranges (suffix ranges without a HEAD request), sizes use HEAD; failed requests are
 * retried with exponential backoff. With `readOnly: false`, `set` sends PUT and `delete`
 * sends DELETE. Plain HTTP cannot list keys, so this store has no `list*` methods: open
 * hierarchies through consolidated metadata.
 *
 * @example
 * ```ts
 * const store = new HttpStore("https://example.com/data.zarr", { missingStatuses: [403, 404] });
 * const meta = await store.get("zarr.json"); // Uint8Array, or undefined when missing
 * const tail = await store.getRange("t2m/c/0/0", { suffixLength: 16 }); // one GET, Range: bytes=-16
 * ```
 */
export class HttpStore implements ReadableStore, WritableStore {
  /** The base URL every key is appended to (with the base's query string, without credentials). */
  readonly url: string;
  /** True when `set` and `delete` refuse with `STORE_READ_ONLY` (the default). */
  readonly readOnly: boolean;
  readonly #base: BaseUrl;
  readonly #settings: HttpStoreSettings;

  /**
   * @param baseUrl The store's root URL (`https://host/path/data.zarr`); a query string is
   *   kept on every request, credentials (`https://user:pass@host/`) become a Basic
   *   `Authorization` header. Relative URLs resolve against the page in browsers.
   * @param options See `HttpStoreOptions`. Invalid options throw `INVALID_ARGUMENT`.
   */
  constructor(baseUrl: string | URL, options: HttpStoreOptions = {}) {
    this.#settings = resolveSettings(options);
    this.#base = parseBaseUrl(baseUrl);
    this.url = this.#base.prefix + this.#base.query;
    this.readOnly = this.#settings.readOnly;
  }

  /**
   * The whole value of `key` (on its own ArrayBuffer, byteOffset 0), or `undefined` when
   * missing. Metadata documents longer than `maxMetadataBytes`, other values longer than
   * `maxValueBytes` fail with `STORE_TOO_LARGE` (counted as the body streams).
   */
  async get(key: string, options?: StoreRequestOptions): Promise<Uint8Array | undefined> {
    return (await this.#read(key, undefined, options?.signal, undefined))?.bytes;
  }

  /**
   * Bytes of `key`: `{offset, length}` → `Range: bytes=a-b`, `{offset}` → `bytes=a-`,
   * `{suffixLength}` → `bytes=-n` (one request, no HEAD). Clamped like `resolveByteRange`:
   * a range past the end gives an empty array. `undefined` when the key is missing.
   * A server that ignores `Range` (200 with the whole value) works too, without reading
   * the whole value: reading stops once the range has arrived (for a suffix, the body is
   * streamed keeping only its last bytes, at most `maxValueBytes` of it).
   */
  async getRange(key: string, range: ByteRange, options?: StoreRequestOptions): Promise<Uint8Array | undefined> {
    return (await this.#read(key, range, options?.signal, undefined))?.bytes;
  }

  /**
   * Versioned read (see `ReadableStore.getVersioned`): like `getRange` (or `get` without
   * a range), with the value's ETag as its version. With `ifVersion`, the request carries
   * `If-Match`; a 412 answer, or an answer with another ETag (a server that ignores
   * `If-Match`), rejects with `STORE_CHANGED`. Weak ETags (`W/"…"`) and answers without an
   * ETag give `version: undefined` (unchecked).
   */
  async getVersioned(key: string, range: ByteRange | undefined, options?: VersionedReadOptions): Promise<VersionedBytes | undefined> {
    return this.#read(key, range, options?.signal, options?.ifVersion);
  }

  /** The most bytes any body for `key` may have (a metadata document or another value). */
  #limitFor(key: string): number {
    return isMetadataKey(key) ? this.#settings.maxMetadataBytes : this.#settings.maxValueBytes;
  }

  /** One GET of `key` (a range of it when `range` is given), with its ETag; see `getVersioned`. */
  async #read(key: string, range: ByteRange | undefined, signal: AbortSignal | undefined, ifVersion: string | undefined): Promise<VersionedBytes | undefined> {
    const url = keyUrl(this.#base, key);
    const limit = this.#limitFor(key);
    const request = range === undefined ? undefined : planRange(range);
    if (request?.kind === "empty") {
      // HTTP cannot ask for zero bytes; all that is left to tell is whether the key exists.
      const size = await this.getSize(key, { signal });
      return size === undefined ? undefined : { bytes: new Uint8Array(0), version: undefined };
    }
    const spec: RequestSpec = { method: "GET", key, url, signal, ifMatch: ifVersion };
    if (request !== undefined) spec.range = rangeHeader(request);
    return this.#request(spec, async (response) => {
      if (this.#isMissing(response)) return undefined;
      if (response.status === 412 && ifVersion !== undefined) throw storeChanged(key, ifVersion, strongEtag(response));
      const version = strongEtag(response);
      if (ifVersion !== undefined && version !== undefined && version !== ifVersion) throw storeChanged(key, ifVersion, version);
      let bytes: Uint8Array;
      switch (response.status) {
        case 206:
          if (request === undefined) return UNHANDLED;
          bytes = await bytesOfPartialAnswer(response, request, limit);
          break;
        case 200:
        case 203:
          bytes = request === undefined ? await readBody(response, declaredLength(response), limit) : await bytesOfWholeAnswer(response, request, limit);
          break;
        case 416:
          if (request === undefined) return UNHANDLED;
          bytes = bytesFromUnsatisfiable(request, unsatisfiedTotal(response.headers.get("content-range")));
          break;
        default:
          return UNHANDLED;
      }
      return { bytes, version };
    });
  }

  /**
   * Scatter read (see `ReadableStore.readInto`): one GET for the span the ranges cover
   * (`Range: bytes=first-last`), its body copied piece by piece into the targets as it
   * arrives, so no buffer holds the whole value (a whole-array read skips allocating and
   * collecting one buffer per chunk). Resolves the value's total size, or `undefined` when
   * the key is missing; when the value is shorter than the ranges need, the size is
   * returned and the targets are not to be used. A body that breaks off is retried like
   * any read. Responses that cannot be placed by position (no `Content-Range` total, a
   * content coding on a partial body) fall back to reading the whole value with `get`.
   */
  async readInto(key: string, ranges: readonly ReadIntoRange[], options?: StoreRequestOptions): Promise<number | undefined> {
    const [first, last] = checkReadIntoRanges(key, ranges);
    if (last === 0) return this.getSize(key, options);
    const sorted = sortedByOffset(ranges);
    const url = keyUrl(this.#base, key);
    const signal = options?.signal;
    const FALL_BACK: unique symbol = Symbol("fall back");
    const result = await this.#request<number | undefined | typeof FALL_BACK>(
      { method: "GET", key, url, range: `bytes=${first}-${last - 1}`, signal },
      async (response) => {
        if (this.#isMissing(response)) return undefined;
        switch (response.status) {
          case 206: {
            const sent = parseContentRange(response.headers.get("content-range"));
            if (sent === undefined || sent.total === undefined || hasContentCoding(response)) return FALL_BACK;
            if (sent.total < last) return sent.total; // too short for the ranges: nothing to copy
            if (sent.start !== first || sent.end !== last - 1) return FALL_BACK;
            await scatterBody(response, first, sorted, last - first);
            return sent.total;
          }
          case 200:
          case 203:
            // The server ignored Range: the body is the whole value (read only up to `last` when its size is known).
            return scatterWhole(response, sorted, last, declaredLength(response), this.#settings.maxValueBytes);
          case 416:
            return unsatisfiedTotal(response.headers.get("content-range")) ?? FALL_BACK;
        }
        return UNHANDLED;
      },
    );
    if (result !== FALL_BACK) return result;
    const whole = await this.get(key, options);
    if (whole === undefined) return undefined;
    if (whole.length >= last) for (const r of ranges) r.target.set(whole.subarray(r.offset, r.offset + r.target.length));
    return whole.length;
  }

  /**
   * The size of `key` in bytes, or `undefined` when missing: HEAD's `Content-Length`;
   * when HEAD is refused or says nothing usable, the total of a `Range: bytes=0-0`
   * response's `Content-Range`; as a last resort the length of the whole value.
   */
  async getSize(key: string, options?: StoreRequestOptions): Promise<number | undefined> {
    const url = keyUrl(this.#base, key);
    const signal = options?.signal;
    const fromHead = await this.#request({ method: "HEAD", key, url, signal }, async (response) => {
      if (this.#isMissing(response)) return undefined;
      if (response.status === 405 || response.status === 501) return UNKNOWN_SIZE; // HEAD not allowed
      if (isSuccess(response.status)) return declaredLength(response) ?? UNKNOWN_SIZE;
      return UNHANDLED;
    });
    if (fromHead !== UNKNOWN_SIZE) return fromHead;
    const fromRange = await this.#request({ method: "GET", key, url, range: "bytes=0-0", signal }, async (response) => {
      if (this.#isMissing(response)) return undefined;
      switch (response.status) {
        case 206: {
          // A content coding makes the total count encoded bytes, not what `get` returns.
          const total = parseContentRange(response.headers.get("content-range"))?.total;
          return total === undefined || hasContentCoding(response) ? UNKNOWN_SIZE : total;
        }
        case 200:
        case 203:
          return declaredLength(response) ?? (await countBody(response, this.#limitFor(key)));
        case 416:
          return bytesFromUnsatisfiable({ kind: "open", start: 0 }, unsatisfiedTotal(response.headers.get("content-range"))).length;
      }
      return UNHANDLED;
    });
    if (fromRange !== UNKNOWN_SIZE) return fromRange;
    return (await this.get(key, options))?.length;
  }

  /** Writes `value` with PUT (retried like reads). Throws `STORE_READ_ONLY` unless the store was made with `readOnly: false`. */
  async set(key: string, value: Uint8Array, options?: StoreRequestOptions): Promise<void> {
    const url = keyUrl(this.#base, key);
    this.#assertWritable(key);
    if (!(value instanceof Uint8Array)) {
      throw new ZarrError("INVALID_ARGUMENT", `The value for "${key}" must be a Uint8Array`, { key });
    }
    // fetch cannot send views of shared memory; everything else goes as it is.
    const body = (value.buffer instanceof ArrayBuffer ? value : value.slice()) as Uint8Array<ArrayBuffer>;
    await this.#request({ method: "PUT", key, url, body, signal: options?.signal }, async (response) => {
      return isSuccess(response.status) ? undefined : UNHANDLED;
    });
  }

  /**
   * Conditional write (`WritableStore.setIfVersion`): PUT with `If-Match: <expected>` (an
   * ETag from `getVersioned`), or `If-None-Match: *` when `expected` is null (only if the
   * key has no value yet). A 412 answer rejects with `STORE_CHANGED` and nothing is
   * written. The server must honour these headers (RFC 9110 §13.1) for the check to hold:
   * one that ignores them makes the write unconditional.
   */
  async setIfVersion(key: string, value: Uint8Array, expected: string | null, options?: StoreRequestOptions): Promise<void> {
    const url = keyUrl(this.#base, key);
    this.#assertWritable(key);
    if (!(value instanceof Uint8Array)) {
      throw new ZarrError("INVALID_ARGUMENT", `The value for "${key}" must be a Uint8Array`, { key });
    }
    const body = (value.buffer instanceof ArrayBuffer ? value : value.slice()) as Uint8Array<ArrayBuffer>;
    const condition = expected === null ? { ifNoneMatchAny: true } : { ifMatch: expected };
    await this.#request({ method: "PUT", key, url, body, signal: options?.signal, ...condition }, async (response) => {
      if (response.status === 412) throw storeChanged(key, expected ?? "(absent)", strongEtag(response));
      return isSuccess(response.status) ? undefined : UNHANDLED;
    });
  }

  /** Deletes `key` with DELETE; a missing key (a missing status) is fine. Throws `STORE_READ_ONLY` on a read-only store. */
  async delete(key: string, options?: StoreRequestOptions): Promise<void> {
    const url = keyUrl(this.#base, key);
    this.#assertWritable(key);
    await this.#request({ method: "DELETE", key, url, signal: options?.signal }, async (response) => {
      return isSuccess(response.status) || this.#isMissing(response) ? undefined : UNHANDLED;
    });
  }

  #assertWritable(key: string): void {
    if (this.readOnly) {
      throw new ZarrError("STORE_READ_ONLY", `Cannot modify "${key}": the HTTP store at ${displayUrl(this.url)} is read-only (pass readOnly: false to use PUT and DELETE)`, { key });
    }
  }

  #isMissing(response: Response): boolean {
    return this.#settings.missingStatuses.has(response.status);
  }

  async #headers(spec: RequestSpec): Promise<Headers | undefined> {
    const option = this.#settings.headers;
    const basicAuth = this.#base.basicAuth;
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
      throw new ZarrError("INVALID_ARGUMENT", `Could not build the request headers for ${spec.method} ${displayUrl(spec.url)}: ${describeError(error)}`, {
        key: spec.key,
        cause: error,
      });
    }
    if (basicAuth !== undefined && !headers.has("authorization")) headers.set("authorization", basicAuth);
    if (spec.body !== undefined && !headers.has("content-type")) headers.set("content-type", "application/octet-stream");
    if (spec.range !== undefined) headers.set("range", spec.range);
    if (spec.ifMatch !== undefined) headers.set("if-match", spec.ifMatch);
    if (spec.ifNoneMatchAny === true) headers.set("if-none-match", "*");
    return headers;
  }

  #aborted(spec: RequestSpec, signal: AbortSignal): ZarrError {
    return new ZarrError("ABORTED", `${spec.method} ${displayUrl(spec.url)} (key "${spec.key}") was aborted`, {
      key: spec.key,
      cause: signal.reason,
    });
  }

  /**
   * Runs one request with retries. `handle` turns a response into the result, throws
   * `TransientError` for a response worth retrying, or returns UNHANDLED to apply the
   * generic rules: retryable statuses are retried, others fail at once.
   */
  async #request<T>(spec: RequestSpec, handle: Handler<T>): Promise<T> {
    const { fetch, requestInit, timeout, retries, retryDelay, maxRetryDelay } = this.#settings;
    const { signal } = spec;
    const where = `${spec.method} ${displayUrl(spec.url)} (key "${spec.key}")`;
    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted) throw this.#aborted(spec, signal);
      const headers = await this.#headers(spec);
      const limit = attemptSignal(signal, timeout);
      let response: Response | undefined;
      let problem: string;
      let retryAfter: number | undefined;
      let cause: unknown;
      try {
        response = await fetch(spec.url, { ...requestInit, method: spec.method, headers, body: spec.body, signal: limit.signal });
        const result = await handle(response);
        discardBody(response); // whatever the handler did not read
        if (result !== UNHANDLED) return result;
        if (!isRetryableStatus(response.status)) {
          const unexpected = isSuccess(response.status) ? "unexpected " : "";
          throw new ZarrError("STORE_FAILED", `${where} failed with ${unexpected}${describeStatus(response)} (attempt ${attempt} of ${retries + 1}; not retried)`, {
            key: spec.key,
          });
        }
        problem = describeStatus(response);
        retryAfter = parseRetryAfter(response.headers.get("retry-after"));
      } catch (error) {
        if (response !== undefined) discardBody(response);
        if (signal?.aborted) throw this.#aborted(spec, signal);
        if (error instanceof ZarrError) throw error;
        if (error instanceof BodyLimitExceeded) {
          throw new ZarrError("STORE_TOO_LARGE", `${where}: ${error.message} (not retried)`, { key: spec.key, cause: error });
        }
        cause = error;
        if (limit.timedOut()) problem = `the request timed out after ${timeout} ms`;
        else if (error instanceof TransientError) problem = error.message;
        else problem = `network error: ${describeError(error)}`;
      } finally {
        limit.dispose();
      }
      if (attempt > retries) {
        throw new ZarrError("STORE_FAILED", `${where} failed after ${attempt} attempt${attempt === 1 ? "" : "s"}: ${problem}`, {
          key: spec.key,
          cause,
        });
      }
      if (!(await sleep(retryWait(attempt - 1, retryDelay, maxRetryDelay, retryAfter), signal))) {
        throw this.#aborted(spec, signal as AbortSignal);
      }
    }
  }
}
