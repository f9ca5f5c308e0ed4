/**
 * The GCS store: one object per key under `gs://bucket/prefix/`. Reads and writes go through
 * `HttpStore` (anonymous or bearer-token requests to `ENDPOINT/BUCKET/KEY`) or, with HMAC
 * keys, through `S3Store` on GCS's S3-compatible XML API; listing uses the XML API too.
 */
import {
  type ByteRange,
  DEFAULT_MAX_METADATA_BYTES,
  type DirListing,
  type ListableStore,
  type ReadableStore,
  type StoreRequestOptions,
  throwIfAborted,
  type VersionedBytes,
  type VersionedReadOptions,
  validatePrefix,
  type WritableStore,
  ZarrError,
} from "@zarr/spec";
import { DEFAULT_TIMEOUT, dirOfPages, type FetchLike, HttpStore, keysOfPages, ListingObjectStore, type ListingTransport, objectPrefix } from "@zarr/store-http";
import { type GcsAccessOptions, type GcsHmacKey, type GcsToken, resolveAccess } from "./settings.js";
import { listPages } from "./xml-listing.js";

/** Options of `new GcsStore(options)`. */
export interface GcsStoreOptions {
  /** The bucket name. */
  bucket: string;
  /** Where the store's root is in the bucket (`"data/era5.zarr"`). Default `""`. */
  prefix?: string;
  /** Server base URL. Default: `ZARR_GCS_ENDPOINT`, `STORAGE_EMULATOR_HOST`, else `https://storage.googleapis.com`. */
  endpoint?: string;
  /** HMAC key: requests are signed (SigV4) and sent to the S3-compatible XML API through `@zarr/store-s3`. */
  hmac?: GcsHmacKey;
  /** OAuth 2 access token (or a function giving a fresh one), sent as `Authorization: Bearer`. */
  token?: GcsToken;
  /** Unsigned requests, ignoring credentials in the environment. */
  anonymous?: boolean;
  /** Refuse `set`, `delete` and `deletePrefix`. Default: `true` for anonymous access, else `false`. */
  readOnly?: boolean;
  /** Read a 403 answer as a missing key (public buckets without list access). Default `false`. */
  forbiddenAsMissing?: boolean;
  /** Retries after a failed request (network error, 429, 5xx). Default 3. */
  retries?: number;
  /** Per-attempt time limit in ms (not for HMAC requests, which the AWS SDK times). Default 30 000. */
  timeout?: number;
  /** fetch implementation for anonymous and token requests. Default: the global `fetch`. */
  fetch?: FetchLike;
  /** Largest metadata document read (`STORE_TOO_LARGE` beyond). Default 64 MiB. */
  maxMetadataBytes?: number;
  /** Largest other value read. Default 2 GiB. */
  maxValueBytes?: number;
  /** Where environment variables are read from. Default `process.env`. */
  env?: Record<string, string | undefined>;
}

type Backend = ReadableStore &
  WritableStore &
  Required<Pick<ReadableStore, "getRange" | "getSize" | "getVersioned">> & { close?(): void };

/** Normalises a prefix inside the bucket: no leading `/`, one trailing `/` unless empty. */
function bucketPrefix(prefix: unknown): string {
  return objectPrefix(prefix, "The GCS prefix");
}

/** Bucket names: 3–222 characters of lower-case letters, digits, `-`, `_` and `.`. */
function checkBucket(bucket: unknown): string {
  if (typeof bucket !== "string" || !/^[a-z0-9][a-z0-9._-]{1,220}[a-z0-9]$/.test(bucket)) {
    throw new ZarrError("INVALID_ARGUMENT", `Invalid GCS bucket name ${JSON.stringify(bucket)}`);
  }
  return bucket;
}

function encodePath(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}

/**
 * A Zarr store on Google Cloud Storage. Three ways in, chosen from the options (else the
 * environment, see `resolveAccess`):
 * - anonymous: plain GETs of `https://storage.googleapis.com/BUCKET/KEY` (public buckets);
 * - `token`: the same requests with `Authorization: Bearer …`, writes as XML API `PUT`/`DELETE`;
 * - `hmac`: the S3-compatible XML API through `S3Store` (SigV4, region `auto`, path-style).
 *
 * Listing asks the XML API (`GET /BUCKET?prefix=…&delimiter=/`) or, with HMAC keys,
 * `ListObjectsV2`. `deletePrefix` lists and deletes object by object (the XML API has no
 * multi-object delete). There is no `setIfVersion`: its conditions are untested on GCS.
 *
 * @example
 * ```ts
 * const store = new GcsStore({ bucket: "public-data", prefix: "era5.zarr", anonymous: true });
 * const meta = await store.get("zarr.json");
 * ```
 */
export class GcsStore extends ListingObjectStore implements ReadableStore, WritableStore, ListableStore {
  /** The bucket. */
  readonly bucket: string;
  /** The root inside the bucket: `""` or ending in `/`. */
  readonly prefix: string;
  /** The server base URL requests go to. */
  readonly endpoint: string;
  /** How requests are authorised. */
  readonly access: "anonymous" | "token" | "hmac";
  /** True when writes are refused. */
  readonly readOnly: boolean;
  readonly #backend: Promise<Backend>;
  readonly #transport: ListingTransport | undefined;
  #closed = false;

  constructor(options: GcsStoreOptions) {
    super();
    if (typeof options !== "object" || options === null) throw new ZarrError("INVALID_ARGUMENT", "new GcsStore needs an options object with a bucket");
    this.bucket = checkBucket(options.bucket);
    this.prefix = bucketPrefix(options.prefix);
    const { endpoint, access } = resolveAccess(options as GcsAccessOptions);
    this.endpoint = endpoint;
    this.access = access.kind;
    if (options.readOnly !== undefined && typeof options.readOnly !== "boolean") throw new ZarrError("INVALID_ARGUMENT", "GCS option `readOnly` must be a boolean");
    this.readOnly = options.readOnly ?? access.kind === "anonymous";
    const retries = options.retries ?? 3;
    if (!Number.isSafeInteger(retries) || retries < 0) throw new ZarrError("INVALID_ARGUMENT", `GCS option \`retries\` must be a non-negative integer, got ${retries}`);
    const limits = { maxMetadataBytes: options.maxMetadataBytes ?? DEFAULT_MAX_METADATA_BYTES, maxValueBytes: options.maxValueBytes };
    if (access.kind === "hmac") {
      this.#transport = undefined;
      this.#backend = import("@zarr/store-s3").then(
        ({ S3Store }) =>
          new S3Store({
            bucket: this.bucket,
            prefix: this.prefix,
            endpoint,
            region: "auto",
            forcePathStyle: true,
            credentials: access.key,
            maxAttempts: retries + 1,
            readOnly: this.readOnly,
            forbiddenAsMissing: options.forbiddenAsMissing === true,
            ...limits,
          }),
      );
      return;
    }
    const token = access.kind === "token" ? access.token : undefined;
    const headers = async (): Promise<Record<string, string>> => (token === undefined ? {} : { authorization: `Bearer ${await token()}` });
    const fetch = options.fetch ?? ((url: string, init: RequestInit) => globalThis.fetch(url, init));
    const timeout = options.timeout ?? DEFAULT_TIMEOUT;
    const http = new HttpStore(`${endpoint}/${encodeURIComponent(this.bucket)}/${encodePath(this.prefix)}`, {
      headers: token === undefined ? undefined : headers,
      fetch,
      timeout,
      retries,
      readOnly: this.readOnly,
      missingStatuses: options.forbiddenAsMissing === true ? [403, 404] : [404],
      ...limits,
    });
    this.#backend = Promise.resolve(http);
    this.#transport = { fetch, headers, retries, timeout: timeout === 0 ? Number.POSITIVE_INFINITY : timeout };
  }

  /** The store's root as a `gs://bucket/prefix/` URL. */
  get url(): string {
    return `gs://${this.bucket}/${this.prefix}`;
  }

  /** The whole value of `key`, or `undefined` when missing. */
  async get(key: string, options?: StoreRequestOptions): Promise<Uint8Array | undefined> {
    return (await this.#open()).get(key, options);
  }

  /** A byte range of `key` (one ranged GET), or `undefined` when missing. */
  async getRange(key: string, range: ByteRange, options?: StoreRequestOptions): Promise<Uint8Array | undefined> {
    return (await this.#open()).getRange(key, range, options);
  }

  /** The size of `key` in bytes (HEAD), or `undefined` when missing. */
  async getSize(key: string, options?: StoreRequestOptions): Promise<number | undefined> {
    return (await this.#open()).getSize(key, options);
  }

  /** A read with the object's ETag as its version (see `ReadableStore.getVersioned`). */
  async getVersioned(key: string, range: ByteRange | undefined, options?: VersionedReadOptions): Promise<VersionedBytes | undefined> {
    return (await this.#open()).getVersioned(key, range, options);
  }

  /** Writes `key` (one PUT). `STORE_READ_ONLY` on a read-only store. */
  async set(key: string, value: Uint8Array, options?: StoreRequestOptions): Promise<void> {
    this.assertWritable(key);
    await (await this.#open()).set(key, value, options);
  }

  /** Deletes `key` (one DELETE); a missing key is fine. */
  async delete(key: string, options?: StoreRequestOptions): Promise<void> {
    this.assertWritable(key);
    await (await this.#open()).delete(key, options);
  }

  /** Every key starting with the string `prefix`, all pages. Names that are not valid keys (folder markers) are skipped. */
  async *listPrefix(prefix: string, options?: StoreRequestOptions): AsyncIterable<string> {
    if (typeof prefix !== "string") throw new ZarrError("INVALID_ARGUMENT", "A list prefix must be a string");
    const backend = await this.#open();
    if (this.#transport === undefined) {
      yield* (backend as unknown as ListableStore).listPrefix(prefix, options);
      return;
    }
    yield* keysOfPages(listPages(this.#transport, this.endpoint, this.bucket, this.prefix + prefix, undefined, options?.signal), this.prefix);
  }

  /** One level under `prefix` (`""` or ending in `/`): keys and child prefixes, sorted, relative to it. */
  async listDir(prefix: string, options?: StoreRequestOptions): Promise<DirListing> {
    throwIfAborted(options?.signal);
    validatePrefix(prefix);
    const backend = await this.#open();
    if (this.#transport === undefined) return (backend as unknown as ListableStore).listDir(prefix, options);
    const full = this.prefix + prefix;
    return dirOfPages(listPages(this.#transport, this.endpoint, this.bucket, full, "/", options?.signal), full);
  }

  /** Releases the S3 client's sockets (HMAC access); the store cannot be used afterwards. */
  close(): void {
    this.#closed = true;
    void this.#backend.then((b) => b.close?.(), () => undefined);
  }

  async #open(): Promise<Backend> {
    if (this.#closed) throw new ZarrError("INVALID_ARGUMENT", `The GCS store ${this.url} is closed`);
    return this.#backend;
  }

  protected assertWritable(key: string): void {
    if (this.readOnly) {
      const why = this.access === "anonymous" ? " (anonymous access: pass `hmac` or `token` to write)" : "";
      throw new ZarrError("STORE_READ_ONLY", `Cannot modify ${JSON.stringify(key)}: the GCS store ${this.url} is read-only${why}`, { key });
    }
  }
}
