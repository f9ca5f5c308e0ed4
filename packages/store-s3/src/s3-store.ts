/** The Zarr store on an S3 bucket (or any S3-compatible server), on the AWS SDK v3. */
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  type ListObjectsV2CommandOutput,
  PutObjectCommand,
  type S3Client,
} from "@aws-sdk/client-s3";
import {
  type ByteRange,
  DEFAULT_MAX_METADATA_BYTES,
  type DirListing,
  isMetadataKey,
  type ListableStore,
  type ReadableStore,
  resolveByteRange,
  type StoreRequestOptions,
  storeChanged,
  throwIfAborted,
  type VersionedBytes,
  type VersionedReadOptions,
  validateKey,
  validatePrefix,
  type WritableStore,
  ZarrError,
} from "@zarr/spec";
import { awsHttpStatus, describeAwsError, isInvalidRange, isMissingObject, storeError } from "./aws-errors.js";
import { ownBytes } from "./body.js";
import { BodyLimitExceeded, collectBounded, collectTail, collectWindow, OBJECT_BODY, type StreamingBody } from "./bounded-body.js";
import { explicitRangeHeader, parseContentRange, rangeRequest } from "./byte-ranges.js";
import { buildS3Client, type S3ClientSettings } from "./client.js";
import { putIfVersion } from "./conditional-put.js";
import { checkBucket, normalizeBucketPrefix } from "./paths.js";

/** Options of `new S3Store(...)`. */
export interface S3StoreOptions extends S3ClientSettings {
  /** The bucket (or access point ARN). */
  bucket: string;
  /** Key prefix inside the bucket where the store's root is (`"a/b"` → keys `a/b/zarr.json`). */
  prefix?: string;
  /**
   * A ready client (shared connection pool, custom middleware...). When given, the
   * client-building options (`region`, `endpoint`, `forcePathStyle`, `credentials`,
   * `anonymous`, `maxAttempts`, `clientConfig`) must be left out.
   */
  client?: S3Client;
  /** Refuse `set`, `delete` and `deletePrefix` with `STORE_READ_ONLY`. Default `false`. */
  readOnly?: boolean;
  /**
   * Read a `403` (AccessDenied) answer to `get`/`getRange`/`getSize` as a missing key.
   * S3 answers 403 instead of 404 for a key that does not exist when the caller may not
   * list the bucket, as often on public buckets read anonymously; Zarr reads missing
   * chunks all the time. Default `false`: a 403 is `STORE_FAILED`, so wrong credentials
   * never look like an empty store.
   */
  forbiddenAsMissing?: boolean;
  /**
   * Largest metadata document (`zarr.json`, `.zarray`, `.zgroup`, `.zattrs`, `.zmetadata`)
   * read, in bytes; a larger object fails with `STORE_TOO_LARGE` without being read.
   * Default 64 MiB.
   */
  maxMetadataBytes?: number;
  /**
   * Largest body read for any other key, in bytes: a whole object, the rest of an object
   * for an open range, or what is streamed past for a suffix range when a server ignores
   * `Range`. Default 2 GiB.
   */
  maxValueBytes?: number;
}

/** Default cap of any body other than a metadata document: 2 GiB. */
export const DEFAULT_MAX_VALUE_BYTES = 2 ** 31;

function positiveInteger(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
    throw new ZarrError("INVALID_ARGUMENT", `S3Store option "${name}" must be a positive integer, got ${String(value)}`);
  }
  return value;
}

/** DeleteObjects takes at most this many keys per request. */
const DELETE_BATCH = 1000;

const CLIENT_SETTINGS = ["region", "endpoint", "forcePathStyle", "credentials", "anonymous", "maxAttempts", "clientConfig"] as const;

/** True for a valid store key (listings skip objects whose names are not, e.g. folder markers `a/`). */
function isStoreKey(key: string): boolean {
  try {
    validateKey(key);
    return true;
  } catch {
    return false;
  }
}

/** Metadata documents are served as JSON (handy in browsers and consoles); chunks as bytes. */
function contentType(key: string): string {
  const name = key.slice(key.lastIndexOf("/") + 1);
  const json = name.endsWith(".json") || [".zarray", ".zgroup", ".zattrs", ".zmetadata"].includes(name);
  return json ? "application/json" : "application/octet-stream";
}

/** What one GetObject returned. */
interface RangedAnswer {
  /** The body of a 206 answer, still to be fitted to the range; `undefined` when `fitted` is final. */
  bytes: Uint8Array | undefined;
  /** The bytes wanted, when no fitting is needed. */
  fitted: Uint8Array;
  status: number | undefined;
  contentRange: string | undefined;
  /** The object's ETag. */
  version: string | undefined;
}

/**
 * A Zarr store on Amazon S3 or an S3-compatible server (MinIO, Cloudflare R2, Ceph,
 * s3rver): readable, writable and listable. Keys map to objects `prefix + key`; writes
 * are single PUTs (atomic on S3); listings page through `ListObjectsV2`. AWS failures
 * reject with `STORE_FAILED` naming the key, its `s3://` location and the AWS error
 * (`AccessDenied (HTTP 403)`); an aborted `signal` rejects with `ABORTED`. Retries are
 * the SDK's (`maxAttempts`).
 *
 * @example
 * ```ts
 * const store = new S3Store({ bucket: "my-bucket", prefix: "climate.zarr", region: "eu-west-1" });
 * const meta = await store.get("zarr.json");
 * const { keys, prefixes } = await store.listDir("");
 * ```
 */
export class S3Store implements ReadableStore, WritableStore, ListableStore {
  /** The bucket. */
  readonly bucket: string;
  /** The store's root inside the bucket: `""` or a prefix ending in `/`. */
  readonly prefix: string;
  /** The SDK client every request goes through. */
  readonly client: S3Client;
  /** True when writes are refused. */
  readonly readOnly: boolean;
  /** True when a 403 on a read means "missing" (see `S3StoreOptions.forbiddenAsMissing`). */
  readonly forbiddenAsMissing: boolean;
  /** The size cap of metadata documents (see `S3StoreOptions.maxMetadataBytes`). */
  readonly maxMetadataBytes: number;
  /** The size cap of other bodies (see `S3StoreOptions.maxValueBytes`). */
  readonly maxValueBytes: number;
  /** True when the store built `client` and so may destroy it in `close()`. */
  readonly #ownsClient: boolean;
  /** Set once the bucket is known to exist (see `#checkBucket`). */
  #bucketSeen = false;

  constructor(options: S3StoreOptions) {
    if (typeof options !== "object" || options === null) {
      throw new ZarrError("INVALID_ARGUMENT", "new S3Store needs an options object with a bucket");
    }
    this.bucket = checkBucket(options.bucket);
    this.prefix = normalizeBucketPrefix(options.prefix);
    this.readOnly = options.readOnly === true;
    this.forbiddenAsMissing = options.forbiddenAsMissing === true;
    this.maxMetadataBytes = positiveInteger("maxMetadataBytes", options.maxMetadataBytes, DEFAULT_MAX_METADATA_BYTES);
    this.maxValueBytes = positiveInteger("maxValueBytes", options.maxValueBytes, DEFAULT_MAX_VALUE_BYTES);
    if (options.client !== undefined) {
      const clash = CLIENT_SETTINGS.filter((name) => options[name] !== undefined);
      if (clash.length > 0) {
        throw new ZarrError("INVALID_ARGUMENT", `S3Store: pass either \`client\` or the client settings (${clash.join(", ")}), not both`);
      }
      if (typeof options.client.send !== "function") throw new ZarrError("INVALID_ARGUMENT", "S3Store: `client` is not an S3Client");
      this.client = options.client;
      this.#ownsClient = false;
    } else {
      this.client = buildS3Client(options);
      this.#ownsClient = true;
    }
  }

  /** The store's root as an `s3://bucket/prefix/` URL. */
  get url(): string {
    return `s3://${this.bucket}/${this.prefix}`;
  }

  /**
   * Reads a whole value (`GetObject`); `undefined` when there is no such object. An object
   * above `maxMetadataBytes` (metadata documents) or `maxValueBytes` (anything else) fails
   * with `STORE_TOO_LARGE`, checked against its Content-Length and as the body streams.
   */
  async get(key: string, options?: StoreRequestOptions): Promise<Uint8Array | undefined> {
    return (await this.#read(key, undefined, options?.signal, undefined))?.bytes;
  }

  /**
   * Reads part of a value with one ranged `GetObject` (`bytes=a-b`, `bytes=a-`,
   * `bytes=-n`); ranges past the end are clamped like `resolveByteRange` (an offset past
   * the end gives an empty array). `undefined` when there is no such object. A server that
   * ignores `Range` and sends the whole object is read only up to the range's end.
   */
  async getRange(key: string, range: ByteRange, options?: StoreRequestOptions): Promise<Uint8Array | undefined> {
    return (await this.#read(key, range, options?.signal, undefined))?.bytes;
  }

  /**
   * Versioned read (see `ReadableStore.getVersioned`): like `getRange` (or `get` without a
   * range), with the object's ETag as its version. With `ifVersion` the request carries
   * `If-Match`; a 412 answer, or an answer with another ETag (a server that ignores
   * `If-Match`), rejects with `STORE_CHANGED`.
   */
  async getVersioned(key: string, range: ByteRange | undefined, options?: VersionedReadOptions): Promise<VersionedBytes | undefined> {
    return this.#read(key, range, options?.signal, options?.ifVersion);
  }

  /** The most bytes any body for `key` may have. */
  #limitFor(key: string): number {
    return isMetadataKey(key) ? this.maxMetadataBytes : this.maxValueBytes;
  }

  async #read(key: string, range: ByteRange | undefined, signal: AbortSignal | undefined, ifVersion: string | undefined): Promise<VersionedBytes | undefined> {
    throwIfAborted(signal);
    validateKey(key);
    const request = range === undefined ? ({ kind: "whole" } as const) : rangeRequest(range);
    if (request.kind === "empty") {
      return (await this.getSize(key, { signal })) === undefined ? undefined : { bytes: new Uint8Array(0), version: undefined };
    }
    const wanted = range ?? { offset: 0 };
    const answer = await this.#getRanged(key, request.kind === "whole" ? undefined : request.header, wanted, signal, ifVersion);
    if (answer === undefined) return undefined;
    if (answer.bytes === undefined) return { bytes: answer.fitted, version: answer.version };
    const fitted = this.#fit(key, wanted, { ...answer, bytes: answer.bytes });
    if (fitted instanceof Uint8Array) return { bytes: fitted, version: answer.version };
    // The server sent other bytes than asked (s3rver misreads `bytes=-n`); the answer's
    // Content-Range told the size, so ask again for exactly the bytes wanted.
    const [start, end] = fitted;
    const again = await this.#getRanged(key, explicitRangeHeader(start, end), { offset: start, length: end - start }, signal, ifVersion ?? answer.version);
    if (again === undefined) return undefined;
    if (again.bytes === undefined) return { bytes: again.fitted, version: again.version };
    const refitted = this.#fit(key, { offset: start, length: end - start }, { ...again, bytes: again.bytes });
    if (refitted instanceof Uint8Array) return { bytes: refitted, version: again.version };
    throw new ZarrError(
      "STORE_FAILED",
      `Failed to read bytes ${start}-${end - 1} of key ${JSON.stringify(key)} from ${this.#where(key)}: the server answered with ${again.contentRange}`,
      { key },
    );
  }

  /** Size in bytes of a value (`HeadObject`'s Content-Length); `undefined` when there is no such object. */
  async getSize(key: string, options?: StoreRequestOptions): Promise<number | undefined> {
    const signal = options?.signal;
    throwIfAborted(signal);
    validateKey(key);
    const what = `Failed to read the size of key ${JSON.stringify(key)} from ${this.#where(key)}`;
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.prefix + key }), {
        abortSignal: signal,
      });
      if (out.ContentLength === undefined) throw new ZarrError("STORE_FAILED", `${what}: the response has no Content-Length`, { key });
      return out.ContentLength;
    } catch (error) {
      if (this.forbiddenAsMissing && awsHttpStatus(error) === 403) return undefined;
      if (!isMissingObject(error)) throw storeError(error, what, key, signal);
    }
    // A HEAD 404 has no error document, so a missing bucket looks like a missing key.
    await this.#checkBucket(what, key, signal);
    return undefined;
  }

  /**
   * Writes a value only if the object still has ETag `expected` (from `getVersioned`), or,
   * with `expected: null`, only if it does not exist: one PutObject with `If-Match` or
   * `If-None-Match: *`, checked by S3 atomically. Rejects with `STORE_CHANGED` (nothing
   * written) when the condition fails. What `set(…, { lock: true })` of @zarr/core uses
   * to retry read-modify-writes instead of locking. Needs a server with conditional
   * writes (AWS S3 has them since 2024; some S3-compatible servers ignore the headers,
   * which makes every write unconditional).
   */
  async setIfVersion(key: string, value: Uint8Array, expected: string | null, options?: StoreRequestOptions): Promise<void> {
    const signal = options?.signal;
    this.#checkWrite(key, value, signal);
    await putIfVersion({
      client: this.client,
      bucket: this.bucket,
      objectKey: this.prefix + key,
      key,
      value,
      contentType: contentType(key),
      expected,
      where: this.#where(key),
      signal,
    });
  }

  /** What every write checks before any request: not aborted, writable, a valid key, bytes. */
  #checkWrite(key: string, value: Uint8Array, signal: AbortSignal | undefined): void {
    throwIfAborted(signal);
    this.#assertWritable(key);
    validateKey(key);
    if (!(value instanceof Uint8Array)) {
      throw new ZarrError("INVALID_ARGUMENT", `The value for key ${JSON.stringify(key)} must be a Uint8Array`, { key });
    }
  }

  /** Writes a value with one `PutObject` (atomic: readers see the old or the new object). */
  async set(key: string, value: Uint8Array, options?: StoreRequestOptions): Promise<void> {
    const signal = options?.signal;
    this.#checkWrite(key, value, signal);
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: this.prefix + key,
          Body: value,
          ContentLength: value.byteLength,
          ContentType: contentType(key),
        }),
        { abortSignal: signal },
      );
    } catch (error) {
      throw storeError(error, `Failed to write key ${JSON.stringify(key)} to ${this.#where(key)}`, key, signal);
    }
  }

  /** Deletes one value (`DeleteObject`); deleting a missing key is not an error. */
  async delete(key: string, options?: StoreRequestOptions): Promise<void> {
    const signal = options?.signal;
    throwIfAborted(signal);
    this.#assertWritable(key);
    validateKey(key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.prefix + key }), { abortSignal: signal });
    } catch (error) {
      throw storeError(error, `Failed to delete key ${JSON.stringify(key)} at ${this.#where(key)}`, key, signal);
    }
  }

  /**
   * Deletes every key under `prefix` (`""` or ending in `/`): lists a page of at most 1000
   * keys, deletes it with one `DeleteObjects`, continues after the page's last key. Keys the
   * server refused to delete (the response's per-key errors) reject with `STORE_FAILED`.
   */
  async deletePrefix(prefix: string, options?: StoreRequestOptions): Promise<void> {
    const signal = options?.signal;
    throwIfAborted(signal);
    this.#assertWritable(prefix);
    validatePrefix(prefix);
    const full = this.prefix + prefix;
    const what = `Failed to delete prefix ${JSON.stringify(prefix)} at s3://${this.bucket}/${full}`;
    // StartAfter (a key) rather than a continuation token: the listing position must not
    // depend on keys this loop has just deleted.
    let startAfter: string | undefined;
    for (;;) {
      throwIfAborted(signal);
      let page: ListObjectsV2CommandOutput;
      try {
        page = await this.client.send(
          new ListObjectsV2Command({ Bucket: this.bucket, Prefix: full || undefined, StartAfter: startAfter }),
          { abortSignal: signal },
        );
      } catch (error) {
        throw storeError(error, what, prefix, signal);
      }
      const keys: string[] = [];
      for (const object of page.Contents ?? []) if (object.Key !== undefined) keys.push(object.Key);
      for (let i = 0; i < keys.length; i += DELETE_BATCH) {
        await this.#deleteBatch(keys.slice(i, i + DELETE_BATCH), what, prefix, signal);
      }
      if (page.IsTruncated !== true) return;
      const last = keys.at(-1);
      if (last === undefined || last === startAfter) {
        throw new ZarrError("STORE_FAILED", `${what}: the server's listing is truncated but makes no progress`, { key: prefix });
      }
      startAfter = last;
    }
  }

  /** Every key of the store, in the server's order (UTF-8 binary order on S3). */
  list(options?: StoreRequestOptions): AsyncIterable<string> {
    return this.listPrefix("", options);
  }

  /**
   * Every key starting with the string `prefix` (which need not end in `/`), paging
   * through `ListObjectsV2` past 1000 keys. Objects whose names are not valid store keys
   * (folder markers such as `a/`, empty or `..` segments) are skipped.
   */
  async *listPrefix(prefix: string, options?: StoreRequestOptions): AsyncIterable<string> {
    const signal = options?.signal;
    throwIfAborted(signal);
    if (typeof prefix !== "string") throw new ZarrError("INVALID_ARGUMENT", "A list prefix must be a string");
    for await (const page of this.#pages(this.prefix + prefix, undefined, signal)) {
      for (const object of page.Contents ?? []) {
        const key = object.Key?.slice(this.prefix.length);
        if (key !== undefined && isStoreKey(key)) yield key;
      }
    }
  }

  /**
   * One level under `prefix` (`""` or ending in `/`): `ListObjectsV2` with delimiter `/`,
   * all pages. `keys` are the objects directly under it, `prefixes` the "subdirectories",
   * both relative to `prefix`, without trailing `/`, sorted.
   */
  async listDir(prefix: string, options?: StoreRequestOptions): Promise<DirListing> {
    const signal = options?.signal;
    throwIfAborted(signal);
    validatePrefix(prefix);
    const full = this.prefix + prefix;
    const keys = new Set<string>();
    const prefixes = new Set<string>();
    for await (const page of this.#pages(full, "/", signal)) {
      for (const object of page.Contents ?? []) {
        const name = object.Key?.slice(full.length);
        if (name !== undefined && isStoreKey(name) && !name.includes("/")) keys.add(name);
      }
      for (const common of page.CommonPrefixes ?? []) {
        const name = common.Prefix?.slice(full.length, -1);
        if (name !== undefined && isStoreKey(name) && !name.includes("/")) prefixes.add(name);
      }
    }
    return { keys: [...keys].sort(), prefixes: [...prefixes].sort() };
  }

  /** Releases the sockets of a client the store built itself (a client passed in is left alone). */
  close(): void {
    if (this.#ownsClient) this.client.destroy();
  }

  /** True when a failed read means the object is not there. */
  #isMissing(error: unknown): boolean {
    return isMissingObject(error) || (this.forbiddenAsMissing && awsHttpStatus(error) === 403);
  }

  /** `s3://bucket/prefix/key` for messages. */
  #where(key: string): string {
    return `s3://${this.bucket}/${this.prefix}${key}`;
  }

  #assertWritable(key: string): void {
    if (this.readOnly) {
      throw new ZarrError("STORE_READ_ONLY", `Cannot modify ${JSON.stringify(key)}: the store at ${this.url} is read-only`, { key });
    }
  }

  /**
   * One GetObject (ranged when `header` is given, with `If-Match` when `ifMatch` is):
   * `undefined` for a missing object; `fitted` bytes when no more fitting is needed (an
   * unsatisfiable range, a whole-object answer, already cut to `wanted`); otherwise the
   * 206's `bytes` for `#fit`. Bodies are read within the size caps; a whole-object answer
   * to a range is read only as far as the range needs.
   */
  async #getRanged(
    key: string,
    header: string | undefined,
    wanted: ByteRange,
    signal: AbortSignal | undefined,
    ifMatch: string | undefined,
  ): Promise<RangedAnswer | undefined> {
    const what = `Failed to read ${header === undefined ? "" : `${header} of `}key ${JSON.stringify(key)} from ${this.#where(key)}`;
    const limit = this.#limitFor(key);
    let body: StreamingBody | undefined;
    try {
      const out = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.prefix + key, Range: header, IfMatch: ifMatch }),
        { abortSignal: signal },
      );
      body = out.Body as StreamingBody | undefined;
      const version = out.ETag;
      if (ifMatch !== undefined && version !== undefined && version !== ifMatch) throw storeChanged(key, ifMatch, version);
      const status = out.$metadata.httpStatusCode;
      if (status === 206) {
        const announced = out.ContentLength;
        // A bounded range never takes more than was asked for.
        const cap = "offset" in wanted && wanted.length !== undefined ? Math.min(limit, wanted.length) : limit;
        if (announced !== undefined && announced > cap) {
          // More than the range asked for: s3rver, for one, answers bytes=0-0 with the whole
          // object as a 206. Keep just the window asked for, when the answer says where it starts.
          const start = /^bytes (\d+)-\d+\/(?:\d+|\*)$/.exec(out.ContentRange ?? "");
          if (start === null || !("offset" in wanted) || wanted.length === undefined || Number(start[1]) > wanted.offset) throw new BodyLimitExceeded(cap, OBJECT_BODY);
          const from = wanted.offset - Number(start[1]);
          const fitted = await collectWindow(body, from, from + wanted.length, limit);
          return { bytes: undefined, fitted: ownBytes(fitted), status, contentRange: out.ContentRange, version };
        }
        const bytes = await collectBounded(body, cap);
        return { bytes, fitted: bytes, status, contentRange: out.ContentRange, version };
      }
      // The whole object (a plain GET, or a server that ignored Range).
      let fitted: Uint8Array;
      if (header === undefined || ("offset" in wanted && wanted.offset === 0 && wanted.length === undefined)) {
        if (out.ContentLength !== undefined && out.ContentLength > limit) throw new BodyLimitExceeded(limit, OBJECT_BODY);
        fitted = await collectBounded(body, limit);
      } else if ("suffixLength" in wanted) {
        fitted = await collectTail(body, wanted.suffixLength, limit);
      } else {
        const to = wanted.length === undefined ? Number.POSITIVE_INFINITY : wanted.offset + wanted.length;
        fitted = await collectWindow(body, wanted.offset, to, limit);
      }
      return { bytes: undefined, fitted: ownBytes(fitted), status, contentRange: out.ContentRange, version };
    } catch (error) {
      body?.destroy?.();
      if (error instanceof ZarrError) throw error;
      if (error instanceof BodyLimitExceeded) {
        throw new ZarrError("STORE_TOO_LARGE", `${what}: ${error.message}`, { key, cause: error });
      }
      if (ifMatch !== undefined && awsHttpStatus(error) === 412) throw storeChanged(key, ifMatch);
      if (this.#isMissing(error)) return undefined;
      if (isInvalidRange(error)) return { bytes: undefined, fitted: new Uint8Array(0), status: 416, contentRange: undefined, version: undefined };
      throw storeError(error, what, key, signal);
    }
  }

  /**
   * The bytes of `range` from a ranged answer, or `[start, end)` to request again when the
   * server sent a different range that does not contain the wanted one.
   */
  #fit(key: string, range: ByteRange, answer: RangedAnswer & { bytes: Uint8Array }): Uint8Array | [number, number] {
    const { bytes } = answer;
    const sent = parseContentRange(answer.contentRange);
    if (sent === undefined) return bytes; // nothing to check against: trust the server
    if (sent.end - sent.start !== bytes.length) {
      throw new ZarrError(
        "STORE_FAILED",
        `Failed to read key ${JSON.stringify(key)} from ${this.#where(key)}: Content-Range ${answer.contentRange} but ${bytes.length} bytes arrived`,
        { key },
      );
    }
    if (sent.total === undefined) return bytes;
    const [start, end] = resolveByteRange(range, sent.total);
    if (start === end) return new Uint8Array(0);
    if (sent.start === start && sent.end === end) return bytes;
    if (sent.start <= start && sent.end >= end) return bytes.slice(start - sent.start, end - sent.start);
    return [start, end];
  }

  /** Pages of `ListObjectsV2` under `prefix`, following continuation tokens. */
  async *#pages(prefix: string, delimiter: string | undefined, signal: AbortSignal | undefined): AsyncGenerator<ListObjectsV2CommandOutput> {
    const what = `Failed to list s3://${this.bucket}/${prefix}`;
    let token: string | undefined;
    for (;;) {
      throwIfAborted(signal);
      let page: ListObjectsV2CommandOutput;
      try {
        page = await this.client.send(
          new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix || undefined, Delimiter: delimiter, ContinuationToken: token }),
          { abortSignal: signal },
        );
      } catch (error) {
        throw storeError(error, what, prefix, signal);
      }
      yield page;
      if (page.IsTruncated !== true) return;
      const next = page.NextContinuationToken;
      if (next === undefined || next === token) {
        throw new ZarrError("STORE_FAILED", `${what}: the listing is truncated but has no new continuation token`, { key: prefix });
      }
      token = next;
    }
  }

  /** One `DeleteObjects` request (quiet mode: the answer lists only the failures). */
  async #deleteBatch(keys: string[], what: string, prefix: string, signal: AbortSignal | undefined): Promise<void> {
    let errors: { Key?: string; Code?: string; Message?: string }[];
    try {
      const out = await this.client.send(
        new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true } }),
        { abortSignal: signal },
      );
      errors = out.Errors ?? [];
    } catch (error) {
      throw storeError(error, what, prefix, signal);
    }
    if (errors.length === 0) return;
    const shown = errors
      .slice(0, 3)
      .map((e) => `${JSON.stringify(e.Key ?? "?")} (${e.Code ?? "Error"}${e.Message ? `: ${e.Message}` : ""})`)
      .join(", ");
    const more = errors.length > 3 ? `, and ${errors.length - 3} more` : "";
    const firstKey = errors[0].Key?.slice(this.prefix.length);
    throw new ZarrError("STORE_FAILED", `${what}: ${errors.length} of ${keys.length} keys were not deleted: ${shown}${more}`, {
      key: firstKey ?? prefix,
    });
  }

  /**
   * After a HEAD 404, makes sure the bucket itself exists (once per store): a `HeadBucket`
   * 404 rejects with `STORE_FAILED` naming the bucket; any other answer (200, or 403 on a
   * public bucket that allows reads but not listing) counts as "exists".
   */
  async #checkBucket(what: string, key: string, signal: AbortSignal | undefined): Promise<void> {
    if (this.#bucketSeen) return;
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }), { abortSignal: signal });
    } catch (error) {
      if (awsHttpStatus(error) === 404) {
        throw new ZarrError("STORE_FAILED", `${what}: bucket "${this.bucket}" does not exist (${describeAwsError(error)})`, {
          key,
          cause: error,
        });
      }
      if (awsHttpStatus(error) === undefined) throw storeError(error, what, key, signal);
    }
    this.#bucketSeen = true;
  }
}
