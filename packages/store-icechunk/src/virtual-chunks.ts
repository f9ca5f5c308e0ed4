/**
 * Reading virtual chunks: byte ranges of objects outside the repository. Only objects
 * inside a container the caller allowed are read (Icechunk requires this explicit
 * authorization: a repository must not make its reader fetch arbitrary URLs); each
 * container's store comes from the caller's factory for its URL scheme.
 */
import type { Store, StoreRequestOptions } from "@zarr/spec";
import { icechunkError } from "./errors.js";
import type { VirtualChunkRef } from "./manifest.js";

/** Where virtual chunks may be read from, and how. */
export interface VirtualChunkOptions {
  /**
   * URL prefixes of the virtual chunk containers this store may read (`"s3://bucket/"`,
   * `"https://host/data/"`). A chunk whose location is in none of them fails with
   * `UNSUPPORTED` naming its container; nothing is fetched.
   */
  containers: readonly string[];
  /**
   * Store factories by URL scheme (`s3`, `gs`, `az`, `http`, `https`, `file`): each opens
   * the store rooted at a container URL; keys are the rest of a location after it.
   */
  stores: Readonly<Record<string, (containerUrl: string) => Store | Promise<Store>>>;
  /**
   * The modification time of the object at `url`, to check references that record one
   * (the object must not have changed since). Without it such chunks fail with
   * `UNSUPPORTED`, unless `verifyChecksums` is false.
   */
  lastModified?(url: string, options: StoreRequestOptions): Promise<Date | undefined>;
  /** Check recorded ETags and modification times (default true). */
  verifyChecksums?: boolean;
}

/** The container a location belongs to when none is configured: scheme, authority and `/`. */
export function containerOf(location: string): string {
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/]*\/?)/.exec(location);
  return m === null ? location : m[1].endsWith("/") ? m[1] : `${m[1]}/`;
}

/** Reads virtual chunks through the allowed containers' stores (opened once each). */
export class VirtualChunkReader {
  readonly #options: VirtualChunkOptions | undefined;
  readonly #prefixes: string[];
  readonly #stores = new Map<string, Promise<Store>>();

  constructor(options: VirtualChunkOptions | undefined) {
    this.#options = options;
    // Longest first, so the most specific container serves a location.
    this.#prefixes = (options?.containers ?? []).map((p) => (p.endsWith("/") ? p : `${p}/`)).sort((a, b) => b.length - a.length);
  }

  /** The bytes of `ref` (chunk `chunk` of the repository), after the checks its reference asks for. */
  async read(ref: VirtualChunkRef, chunk: string, options: StoreRequestOptions): Promise<Uint8Array> {
    const { location, offset, length } = ref;
    const prefix = this.#prefixes.find((p) => location.startsWith(p));
    if (prefix === undefined || this.#options === undefined) {
      throw icechunkError(
        "UNSUPPORTED",
        chunk,
        `virtual chunk at ${JSON.stringify(location)} is in the virtual chunk container ${JSON.stringify(containerOf(location))}, which this store may not read (allow it: virtualChunks.containers, or ?container= in an icechunk+ URL)`,
      );
    }
    const store = await this.#storeFor(prefix, chunk);
    const key = location.slice(prefix.length);
    const verify = this.#options.verifyChecksums !== false;
    let bytes: Uint8Array | undefined;
    if (verify && ref.etag !== undefined) {
      if (typeof store.getVersioned !== "function") throw this.#cannotVerify(chunk, location, "its ETag (the container's store cannot read versions)");
      const read = await store.getVersioned(key, { offset, length }, options);
      if (read !== undefined) {
        if (read.version === undefined) throw this.#cannotVerify(chunk, location, "its ETag (the server sent none)");
        if (normalEtag(read.version) !== normalEtag(ref.etag)) {
          throw icechunkError("CHECKSUM_MISMATCH", chunk, `virtual chunk object ${JSON.stringify(location)} has ETag ${read.version}, not ${ref.etag} as when the reference was written`);
        }
      }
      bytes = read?.bytes;
    } else {
      bytes = await (typeof store.getRange === "function" ? store.getRange(key, { offset, length }, options) : store.get(key, options).then((b) => b?.subarray(offset, offset + length)));
    }
    if (verify && ref.lastModified !== undefined) {
      const lastModified = this.#options.lastModified;
      if (lastModified === undefined) throw this.#cannotVerify(chunk, location, "its modification time (give virtualChunks.lastModified)");
      const modified = await lastModified(location, options);
      if (modified === undefined) throw this.#cannotVerify(chunk, location, "its modification time (unknown)");
      if (Math.floor(modified.getTime() / 1000) > ref.lastModified) {
        throw icechunkError(
          "CHECKSUM_MISMATCH",
          chunk,
          `virtual chunk object ${JSON.stringify(location)} was modified at ${modified.toISOString()}, after the reference was written (${new Date(ref.lastModified * 1000).toISOString()})`,
        );
      }
    }
    if (bytes === undefined) throw icechunkError("NODE_NOT_FOUND", chunk, `virtual chunk object ${JSON.stringify(location)} does not exist`);
    if (bytes.length !== length) {
      throw icechunkError("CODEC_FAILED", chunk, `virtual chunk reference reads bytes ${offset}..${offset + length} of ${JSON.stringify(location)}, past the end of the object (got ${bytes.length} bytes)`);
    }
    return bytes;
  }

  #cannotVerify(chunk: string, location: string, what: string) {
    return icechunkError("UNSUPPORTED", chunk, `virtual chunk object ${JSON.stringify(location)}: cannot check ${what}; set virtualChunks.verifyChecksums to false to read it unchecked`);
  }

  #storeFor(prefix: string, chunk: string): Promise<Store> {
    let store = this.#stores.get(prefix);
    if (store === undefined) {
      const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(prefix)?.[1].toLowerCase() ?? "file";
      const factories = this.#options?.stores ?? {};
      const open = Object.hasOwn(factories, scheme) ? factories[scheme] : undefined;
      if (open === undefined) {
        return Promise.reject(icechunkError("UNSUPPORTED", chunk, `no store factory for the "${scheme}" scheme of virtual chunk container ${JSON.stringify(prefix)} (virtualChunks.stores)`));
      }
      store = Promise.resolve().then(() => open(prefix));
      this.#stores.set(prefix, store);
    }
    return store;
  }
}

/** An ETag without weak marker and quotes, for comparison. */
function normalEtag(etag: string): string {
  return etag.replace(/^W\//, "").replace(/^"(.*)"$/, "$1");
}
