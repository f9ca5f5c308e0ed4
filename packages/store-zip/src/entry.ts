/** The registry entry that opens `zip:` and `zip+<scheme>:` URLs as a ZipStore. */
import { type StoreEntry, ZarrError } from "@zarr/spec";
import { ZipStore } from "./zip-store.js";

/** A zip location split into the store that holds the archive and the archive's key. */
export interface ZipLocation {
  /** URL or path of the store holding the archive (`s3://bucket/dir`, `/tmp/x`). */
  container: string;
  /** The archive's key in that store (`a.zip`). */
  archive: string;
  /** Folder inside the archive after `!/` (`data.zarr/`), or `undefined`. */
  prefix: string | undefined;
}

function bad(url: string, why: string): never {
  throw new ZarrError("INVALID_ARGUMENT", `Invalid zip location ${JSON.stringify(url)}: ${why}`);
}

/**
 * Splits a zip location into container, archive key and inner prefix:
 *
 * - `zip+s3://bucket/dir/a.zip` → container `s3://bucket/dir`, archive `a.zip`
 * - `zip+https://host/a.zip!/data.zarr` → container `https://host`, archive `a.zip`, prefix `data.zarr/`
 * - `/tmp/x/a.zip`, `file:///tmp/x/a.zip`, `zip:///tmp/x/a.zip` → container `/tmp/x` (or
 *   `file:///tmp/x`), archive `a.zip`
 *
 * URL keys are percent-decoded (`my%20data.zip` → `my data.zip`); a query string stays
 * with the container URL. Plain paths are taken literally.
 *
 * @example
 * ```ts
 * splitZipLocation("zip+s3://bucket/dir/a.zip!/data.zarr");
 * // { container: "s3://bucket/dir", archive: "a.zip", prefix: "data.zarr/" }
 * ```
 */
export function splitZipLocation(url: string): ZipLocation {
  if (typeof url !== "string" || url === "") bad(String(url), "empty");
  let inner = url;
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//.exec(url)?.[1]?.toLowerCase();
  if (scheme === "zip") inner = url.slice("zip://".length);
  else if (scheme?.startsWith("zip+")) inner = url.slice("zip+".length);
  else if (scheme !== undefined && scheme !== "file" && !/^[a-zA-Z]:[\\/]/.test(url)) {
    bad(url, `expected zip+<scheme>://, zip:// or a path or file: URL ending in .zip (scheme "${scheme}")`);
  }
  const isUrl = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(inner) && !/^[a-zA-Z]:[\\/]/.test(inner);

  // "!/" separates the archive from a folder inside it (as in jar: URLs).
  let prefix: string | undefined;
  const bang = inner.indexOf("!/");
  if (bang >= 0) {
    const p = inner.slice(bang + 2).replace(/^\/+|\/+$/g, "");
    prefix = p === "" ? undefined : `${isUrl ? decode(url, p) : p}/`;
    inner = inner.slice(0, bang);
  }
  let query = "";
  if (isUrl) {
    const q = inner.search(/[?#]/);
    if (q >= 0) {
      query = inner.slice(q);
      inner = inner.slice(0, q);
    }
  }
  inner = inner.replace(/\/+$/, "");
  const sep = isUrl ? inner.lastIndexOf("/") : Math.max(inner.lastIndexOf("/"), inner.lastIndexOf("\\"));
  let container: string;
  let name: string;
  if (isUrl) {
    const authorityEnd = inner.indexOf("://") + 3;
    if (sep < authorityEnd) bad(url, "no archive name after the host or bucket");
    container = inner.slice(0, sep);
    // file:///a.zip: the container is the root directory "file:///".
    if (container.length === authorityEnd) container += "/";
    name = decode(url, inner.slice(sep + 1));
  } else {
    container = sep < 0 ? "." : sep === 0 ? inner.slice(0, 1) : inner.slice(0, sep);
    // "C:\\a.zip": keep the drive's root.
    if (/^[a-zA-Z]:$/.test(container)) container += inner[sep];
    name = inner.slice(sep + 1);
  }
  if (name === "") bad(url, "no archive name");
  return { container: container + query, archive: name, prefix };
}

function decode(url: string, s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return bad(url, `bad percent-encoding in ${JSON.stringify(s)}`);
  }
}

/**
 * Serves `zip` (a path or `file:` URL ending in `.zip`, or `zip://<path>`) and
 * `zip+file`, `zip+http`, `zip+https`, `zip+s3` in `openStore` (from @zarr/core): the
 * store holding the archive is opened through the registry (`options.openInner`), and
 * the archive inside it becomes a read-only {@link ZipStore}. Append `!/folder` to root
 * the store at a folder inside the archive.
 *
 * @example
 * ```ts
 * const registry = createRegistry([fileStoreEntry, zipStoreEntry]);
 * const store = await openStore("/data/example.zarr.zip", { registry });
 * ```
 */
export const zipStoreEntry: StoreEntry = {
  type: "store",
  name: "zip",
  schemes: ["zip", "zip+file", "zip+http", "zip+https", "zip+s3"],
  package: "@zarr/store-zip",
  async open(url, options) {
    const { container, archive, prefix } = splitZipLocation(url);
    if (typeof options.openInner !== "function") {
      throw new ZarrError(
        "INVALID_ARGUMENT",
        `Opening ${JSON.stringify(url)} needs options.openInner to open the store holding the archive (use openStore from @zarr/core)`,
      );
    }
    const source = await options.openInner(container);
    return new ZipStore(source, archive, prefix === undefined ? {} : { prefix });
  },
};
