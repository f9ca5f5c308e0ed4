/**
 * The Azure Blob Storage store: one block blob per key under `container/prefix/`, read and
 * written through `HttpStore` (the Blob REST API is plain HTTP: GET with `Range`, HEAD,
 * single-shot Put Blob, Delete Blob), listed with List Blobs.
 */
import {
  type ByteRange,
  type DirListing,
  type ListableStore,
  type ReadableStore,
  type ReadIntoRange,
  type StoreRequestOptions,
  throwIfAborted,
  type VersionedBytes,
  type VersionedReadOptions,
  validatePrefix,
  type WritableStore,
  ZarrError,
} from "@zarr/spec";
import { DEFAULT_TIMEOUT, dirOfPages, type FetchLike, HttpStore, keysOfPages, ListingObjectStore, objectPrefix } from "@zarr/store-http";
import { blobFetch } from "./blob-fetch.js";
import { type ContainerListing, listPages } from "./listing.js";
import { AZURE_API_VERSION, resolveAccess } from "./settings.js";
import { sharedKeyFetch } from "./shared-key.js";

/** Options of `new AzureStore(options)`. */
export interface AzureStoreOptions {
  /** The container. */
  container: string;
  /** Where the store's root is in the container (`"era5.zarr"`). Default `""`. */
  prefix?: string;
  /** The storage account (`https://ACCOUNT.blob.core.windows.net`). Default: `AZURE_STORAGE_ACCOUNT`. */
  account?: string;
  /** The account's Blob service URL instead (Azurite: `http://127.0.0.1:10000/devstoreaccount1`). Default: `ZARR_AZURE_ENDPOINT`. */
  endpoint?: string;
  /** A SAS token (`sv=…&sig=…`, with or without `?`) added to every request. Default: `AZURE_STORAGE_SAS_TOKEN`. */
  sasToken?: string;
  /**
   * The account key (base64, as the portal shows it): requests are signed with Shared Key.
   * Needs the account name (`account` or `AZURE_STORAGE_ACCOUNT`). Default: `AZURE_STORAGE_KEY`.
   */
  accountKey?: string;
  /** No SAS token or key, even when the environment has one (public containers). */
  anonymous?: boolean;
  /** Refuse `set`, `delete` and `deletePrefix`. Default: `true` for anonymous access, else `false`. */
  readOnly?: boolean;
  /** Retries after a failed request (network error, 408, 429, 5xx). Default 3. */
  retries?: number;
  /** Per-attempt time limit in ms. Default 30 000. */
  timeout?: number;
  /** fetch implementation. Default: the global `fetch`. */
  fetch?: FetchLike;
  /** Largest metadata document read (`STORE_TOO_LARGE` beyond). Default 64 MiB. */
  maxMetadataBytes?: number;
  /** Largest other value read. Default 2 GiB. */
  maxValueBytes?: number;
  /** Blobs per List Blobs page (`maxresults`, 1–5000). Default: the service's (5000). */
  listPageSize?: number;
  /** Where environment variables are read from. Default `process.env`. */
  env?: Record<string, string | undefined>;
}

/** Container names: 3–63 characters of lower-case letters, digits and single `-` (`$root`, `$web` too). */
function checkContainer(container: unknown): string {
  if (typeof container !== "string" || !/^(?:[a-z0-9](?:[a-z0-9]|-(?!-)){1,61}[a-z0-9]|\$root|\$web)$/.test(container)) {
    throw new ZarrError("INVALID_ARGUMENT", `Invalid Azure container name ${JSON.stringify(container)}`);
  }
  return container;
}

function containerPrefix(prefix: unknown): string {
  return objectPrefix(prefix, "The Azure prefix");
}

/**
 * A Zarr store on Azure Blob Storage. Every request carries `x-ms-version` and, when one is
 * set, the SAS token's query or a Shared Key signature; writes are single-shot Put Blob (`x-ms-blob-type: BlockBlob`,
 * up to 5000 MiB), deletes are Delete Blob, reads GET with `Range` (a suffix range, which
 * Blob Storage lacks, is a HEAD for the size and then an offset range). `setIfVersion` sends
 * `If-Match` / `If-None-Match: *`, which Blob Storage honours (its 409 for an existing blob
 * is read as the 412 it means). Anonymous access works for
 * containers with public read access.
 *
 * @example
 * ```ts
 * const store = new AzureStore({ account: "myaccount", container: "climate", prefix: "era5.zarr", sasToken });
 * const meta = await store.get("zarr.json");
 * ```
 */
export class AzureStore extends ListingObjectStore implements ReadableStore, WritableStore, ListableStore {
  /** The container. */
  readonly container: string;
  /** The root inside the container: `""` or ending in `/`. */
  readonly prefix: string;
  /** The account's Blob service URL. */
  readonly endpoint: string;
  /** True when requests carry a SAS token or a Shared Key signature. */
  readonly signed: boolean;
  /** How requests are authorised. */
  readonly auth: "anonymous" | "sas" | "sharedKey";
  /** True when writes are refused. */
  readonly readOnly: boolean;
  readonly #http: HttpStore;
  readonly #listing: ContainerListing;

  constructor(options: AzureStoreOptions) {
    super();
    if (typeof options !== "object" || options === null) throw new ZarrError("INVALID_ARGUMENT", "new AzureStore needs an options object with a container");
    this.container = checkContainer(options.container);
    this.prefix = containerPrefix(options.prefix);
    const { endpoint, sasToken, sharedKey } = resolveAccess(options);
    this.endpoint = endpoint;
    this.auth = sasToken !== undefined ? "sas" : sharedKey !== undefined ? "sharedKey" : "anonymous";
    this.signed = this.auth !== "anonymous";
    if (options.readOnly !== undefined && typeof options.readOnly !== "boolean") throw new ZarrError("INVALID_ARGUMENT", "Azure option `readOnly` must be a boolean");
    this.readOnly = options.readOnly ?? !this.signed;
    const retries = options.retries ?? 3;
    if (!Number.isSafeInteger(retries) || retries < 0) throw new ZarrError("INVALID_ARGUMENT", `Azure option \`retries\` must be a non-negative integer, got ${retries}`);
    const pageSize = options.listPageSize;
    if (pageSize !== undefined && (!Number.isSafeInteger(pageSize) || pageSize < 1 || pageSize > 5000)) {
      throw new ZarrError("INVALID_ARGUMENT", `Azure option \`listPageSize\` must be an integer from 1 to 5000, got ${pageSize}`);
    }
    const given = options.fetch ?? ((url: string, init: RequestInit) => globalThis.fetch(url, init));
    const fetch = sharedKey === undefined ? given : sharedKeyFetch(given, sharedKey.account, sharedKey.key);
    const timeout = options.timeout ?? DEFAULT_TIMEOUT;
    const containerUrl = `${endpoint}/${encodeURIComponent(this.container)}`;
    const path = this.prefix.split("/").map(encodeURIComponent).join("/");
    this.#http = new HttpStore(`${containerUrl}/${path}${sasToken === undefined ? "" : `?${sasToken}`}`, {
      headers: ({ method }): Record<string, string> =>
        method === "PUT" ? { "x-ms-version": AZURE_API_VERSION, "x-ms-blob-type": "BlockBlob" } : { "x-ms-version": AZURE_API_VERSION },
      fetch: blobFetch(fetch),
      timeout,
      retries,
      readOnly: this.readOnly,
      maxMetadataBytes: options.maxMetadataBytes,
      maxValueBytes: options.maxValueBytes,
    });
    this.#listing = {
      transport: { fetch, retries, timeout: timeout === 0 ? Number.POSITIVE_INFINITY : timeout, headers: async () => ({ "x-ms-version": AZURE_API_VERSION }) },
      containerUrl,
      sasToken,
      pageSize,
      name: `az://${this.container}/`,
    };
  }

  /** The store's root as an `az://container/prefix/` URL (without the account or any SAS token). */
  get url(): string {
    return `az://${this.container}/${this.prefix}`;
  }

  /** The whole value of `key`, or `undefined` when missing. */
  get(key: string, options?: StoreRequestOptions): Promise<Uint8Array | undefined> {
    return this.#http.get(key, options);
  }

  /** A byte range of `key` (one GET with `Range`), or `undefined` when missing. */
  getRange(key: string, range: ByteRange, options?: StoreRequestOptions): Promise<Uint8Array | undefined> {
    return this.#http.getRange(key, range, options);
  }

  /** The size of `key` (HEAD: Get Blob Properties), or `undefined` when missing. */
  getSize(key: string, options?: StoreRequestOptions): Promise<number | undefined> {
    return this.#http.getSize(key, options);
  }

  /** A read with the blob's ETag as its version (see `ReadableStore.getVersioned`). */
  getVersioned(key: string, range: ByteRange | undefined, options?: VersionedReadOptions): Promise<VersionedBytes | undefined> {
    return this.#http.getVersioned(key, range, options);
  }

  /** Scatter read of several ranges of `key` with one GET (see `ReadableStore.readInto`). */
  readInto(key: string, ranges: readonly ReadIntoRange[], options?: StoreRequestOptions): Promise<number | undefined> {
    return this.#http.readInto(key, ranges, options);
  }

  /** Writes `key` with one Put Blob (a block blob). */
  async set(key: string, value: Uint8Array, options?: StoreRequestOptions): Promise<void> {
    this.assertWritable(key);
    await this.#http.set(key, value, options);
  }

  /** Put Blob only if the blob still has ETag `expected` (`null`: only if there is none); `STORE_CHANGED` otherwise. */
  async setIfVersion(key: string, value: Uint8Array, expected: string | null, options?: StoreRequestOptions): Promise<void> {
    this.assertWritable(key);
    await this.#http.setIfVersion(key, value, expected, options);
  }

  /** Deletes `key` (Delete Blob); a missing key is fine. */
  async delete(key: string, options?: StoreRequestOptions): Promise<void> {
    this.assertWritable(key);
    await this.#http.delete(key, options);
  }

  /** Every key starting with the string `prefix`, all pages; blob names that are not valid keys are skipped. */
  async *listPrefix(prefix: string, options?: StoreRequestOptions): AsyncIterable<string> {
    if (typeof prefix !== "string") throw new ZarrError("INVALID_ARGUMENT", "A list prefix must be a string");
    yield* keysOfPages(listPages(this.#listing, this.prefix + prefix, undefined, options?.signal), this.prefix);
  }

  /** One level under `prefix` (`""` or ending in `/`): keys and child prefixes, sorted, relative to it. */
  async listDir(prefix: string, options?: StoreRequestOptions): Promise<DirListing> {
    throwIfAborted(options?.signal);
    validatePrefix(prefix);
    const full = this.prefix + prefix;
    return dirOfPages(listPages(this.#listing, full, "/", options?.signal), full);
  }

  protected assertWritable(key: string): void {
    if (this.readOnly) {
      const why = this.signed ? "" : " (anonymous: pass sasToken or accountKey, or set AZURE_STORAGE_SAS_TOKEN or AZURE_STORAGE_KEY, to write)";
      throw new ZarrError("STORE_READ_ONLY", `Cannot modify ${JSON.stringify(key)}: the Azure store ${this.url} is read-only${why}`, { key });
    }
  }
}
