/** The HTTP store: Zarr keys as URLs under a base URL, read (and optionally written) with fetch. */
import type {
  ByteRange,
  ReadableStore,
  ReadIntoRange,
  StoreRequestOptions,
  VersionedBytes,
  VersionedReadOptions,
  WritableStore,
} from "@zarr/spec";
import { type HttpStoreOptions, resolveSettings } from "./options.js";
import { parseBaseUrl } from "./store-url.js";
import { getWhole, KIT, type Transport } from "./transport.js";

// The modules loaded on first use that several methods load, each from one import site, so
// the name of its chunk ships once (bundle size).
const rangedRead = () => import("./ranged-read.js");
const writes = () => import("./writes.js");

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
  /**
   * The bytes `get` resolves are each response's own buffer, kept nowhere else, so a
   * worker pool moves them to its workers without a copy (see `ReadableStore.returnedBytes`).
   */
  readonly returnedBytes = "owned";
  // Whole-value reads run here; ranges, sizes, scatter reads, versions and writes load
  // their modules on first use (a reader of whole chunks keeps them out of its bundle).
  readonly #transport: Transport;

  /**
   * @param baseUrl The store's root URL (`https://host/path/data.zarr`); a query string is
   *   kept on every request, credentials (`https://user:pass@host/`) become a Basic
   *   `Authorization` header. Relative URLs resolve against the page in browsers.
   * @param options See `HttpStoreOptions`. Invalid options throw `INVALID_ARGUMENT`.
   */
  constructor(baseUrl: string | URL, options: HttpStoreOptions = {}) {
    const settings = resolveSettings(options);
    const base = parseBaseUrl(baseUrl);
    this.#transport = { base, settings, kit: KIT };
    this.url = base.prefix + base.query;
    this.readOnly = settings.readOnly;
  }

  /**
   * The whole value of `key` (on its own ArrayBuffer, byteOffset 0), or `undefined` when
   * missing. Metadata documents longer than `maxMetadataBytes`, other values longer than
   * `maxValueBytes` fail with `STORE_TOO_LARGE` (counted as the body streams).
   */
  async get(key: string, options?: StoreRequestOptions): Promise<Uint8Array | undefined> {
    return getWhole(this.#transport, key, options?.signal);
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
    const { readRange } = await rangedRead();
    return (await readRange(this.#transport, key, range, options?.signal, undefined))?.bytes;
  }

  /**
   * Versioned read (see `ReadableStore.getVersioned`): like `getRange` (or `get` without
   * a range), with the value's ETag as its version. With `ifVersion`, the request carries
   * `If-Match`; a 412 answer, or an answer with another ETag (a server that ignores
   * `If-Match`), rejects with `STORE_CHANGED`. Weak ETags (`W/"…"`) and answers without an
   * ETag give `version: undefined` (unchecked).
   */
  async getVersioned(key: string, range: ByteRange | undefined, options?: VersionedReadOptions): Promise<VersionedBytes | undefined> {
    const { readRange } = await rangedRead();
    return readRange(this.#transport, key, range, options?.signal, options?.ifVersion);
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
    const { scatterRead } = await import("./scatter-read.js");
    return scatterRead(this.#transport, key, ranges, options?.signal);
  }

  /**
   * The size of `key` in bytes, or `undefined` when missing: HEAD's `Content-Length`;
   * when HEAD is refused or says nothing usable, the total of a `Range: bytes=0-0`
   * response's `Content-Range`; as a last resort the length of the whole value.
   */
  async getSize(key: string, options?: StoreRequestOptions): Promise<number | undefined> {
    const { probeSize } = await import("./size-probe.js");
    return probeSize(this.#transport, key, options?.signal);
  }

  /** Writes `value` with PUT (retried like reads). Throws `STORE_READ_ONLY` unless the store was made with `readOnly: false`. */
  async set(key: string, value: Uint8Array, options?: StoreRequestOptions): Promise<void> {
    const { put } = await writes();
    return put(this.#transport, key, value, options?.signal);
  }

  /**
   * Conditional write (`WritableStore.setIfVersion`): PUT with `If-Match: <expected>` (an
   * ETag from `getVersioned`), or `If-None-Match: *` when `expected` is null (only if the
   * key has no value yet). A 412 answer rejects with `STORE_CHANGED` and nothing is
   * written. The server must honour these headers (RFC 9110 §13.1) for the check to hold:
   * one that ignores them makes the write unconditional.
   */
  async setIfVersion(key: string, value: Uint8Array, expected: string | null, options?: StoreRequestOptions): Promise<void> {
    const { put } = await writes();
    return put(this.#transport, key, value, options?.signal, expected);
  }

  /** Deletes `key` with DELETE; a missing key (a missing status) is fine. Throws `STORE_READ_ONLY` on a read-only store. */
  async delete(key: string, options?: StoreRequestOptions): Promise<void> {
    const { remove } = await writes();
    return remove(this.#transport, key, options?.signal);
  }
}
