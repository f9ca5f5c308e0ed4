/**
 * The files references point into ("targets"): each URL is split into the store of its
 * folder and the file's key in it, the store opened once per folder (through the caller's
 * `openTarget`: the registry's store for the URL scheme), and range reads of one file
 * asked for together are merged (`RangeBatcher`: neighbouring HDF5/NetCDF chunks of one
 * file become one request).
 */
import { RangeBatcher, type RangeBatchOptions, type Store, type VersionedBytes, ZarrError } from "@zarr/spec";

/** Opens the store of a folder URL or path (`s3://bucket/dir`, `https://host/dir`, `/data/dir`). */
export type OpenTarget = (location: string) => Store | Promise<Store>;

/** A target file: the store of its folder and its key there. */
export interface TargetFile {
  readonly folder: string;
  readonly key: string;
}

/** True for URLs with a scheme (`s3://`, `https://`, `file://`), not Windows drive paths. */
function hasScheme(url: string): boolean {
  return /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(url) && !/^[a-zA-Z]:[\\/]/.test(url);
}

/**
 * Splits a target URL into its folder and file name. Relative paths resolve against
 * `base` (the folder of the reference document), as kerchunk writes them for files
 * beside it.
 *
 * @example
 * ```ts
 * splitTarget("s3://bucket/data/file.nc"); // { folder: "s3://bucket/data", key: "file.nc" }
 * splitTarget("file.nc", "/refs"); // { folder: "/refs", key: "file.nc" }
 * ```
 */
export function splitTarget(url: string, base?: string): TargetFile {
  let full = url;
  if (!hasScheme(url) && !url.startsWith("/") && !/^[a-zA-Z]:[\\/]/.test(url) && base !== undefined) {
    full = `${base.replace(/\/+$/, "")}/${url}`;
  }
  const query = hasScheme(full) ? full.indexOf("?") : -1;
  const path = query < 0 ? full : full.slice(0, query);
  const slash = path.lastIndexOf("/");
  const name = path.slice(slash + 1);
  if (name === "") throw new ZarrError("METADATA_INVALID", `The reference target ${JSON.stringify(url)} names no file`);
  // Stores take decoded keys; URLs carry encoded file names.
  const key = hasScheme(full) ? safeDecode(name) : name;
  const folder = slash < 0 ? "." : path.slice(0, slash) || "/";
  return { folder: query < 0 ? folder : folder + full.slice(query), key };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The target stores of one reference set: opened once per folder, with a range batcher each. */
export class Targets {
  readonly #open: OpenTarget;
  readonly #base: string | undefined;
  readonly #coalesce: RangeBatchOptions | false;
  readonly #stores = new Map<string, Promise<{ store: Store; batcher: RangeBatcher | undefined }>>();

  constructor(open: OpenTarget, base: string | undefined, coalesce: RangeBatchOptions | false) {
    this.#open = open;
    this.#base = base;
    this.#coalesce = coalesce;
  }

  /** The store and key of `url`. */
  async resolve(url: string): Promise<{ store: Store; batcher: RangeBatcher | undefined; key: string }> {
    const { folder, key } = splitTarget(url, this.#base);
    let opened = this.#stores.get(folder);
    if (opened === undefined) {
      opened = Promise.resolve(this.#open(folder)).then((store) => ({ store, batcher: this.#batcherFor(store) }));
      // A folder that fails to open is tried again on the next read, not remembered.
      opened.catch(() => this.#stores.delete(folder));
      this.#stores.set(folder, opened);
    }
    return { ...(await opened), key };
  }

  #batcherFor(store: Store): RangeBatcher | undefined {
    if (this.#coalesce === false || store.getRange === undefined) return undefined;
    const getRange = store.getRange.bind(store);
    return new RangeBatcher(async (key, range, _version, signal): Promise<VersionedBytes | undefined> => {
      const bytes = await getRange(key, range, { signal });
      return bytes === undefined ? undefined : { bytes, version: undefined };
    }, this.#coalesce);
  }
}
