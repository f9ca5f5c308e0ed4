/**
 * The registry entry that opens `icechunk+<store URL>` locations: the repository is read
 * from the store of the inner URL (opened through the same registry), at the branch, tag
 * or snapshot the query names.
 */
import { type StoreEntry, ZarrError } from "@zarr/spec";
import { openIcechunk } from "./repository.js";

/** The schemes of the stores an Icechunk repository is commonly held in. */
const INNER_SCHEMES = ["file", "http", "https", "s3", "gs", "az", "abfs", "abfss"];

/** An `icechunk+` location split into the repository's store URL and what to open there. */
export interface IcechunkLocation {
  /** URL of the store holding the repository (`s3://bucket/repo`, `file:///data/repo`). */
  repository: string;
  branch: string | undefined;
  tag: string | undefined;
  snapshot: string | undefined;
  /** Virtual chunk containers the location allows (`?container=s3://bucket/`, repeatable). */
  containers: string[];
  /** `?checksums=ignore`: read virtual chunks without checking their recorded ETag or time. */
  ignoreChecksums: boolean;
}

/**
 * Splits `icechunk+<store URL>[?branch=…|tag=…|snapshot=…][&container=…][&checksums=ignore]`.
 * Other query parameters stay with the store URL.
 *
 * @example
 * ```ts
 * splitIcechunkLocation("icechunk+s3://bucket/repo?tag=v1&container=s3://data/");
 * // { repository: "s3://bucket/repo", branch: undefined, tag: "v1", snapshot: undefined, containers: ["s3://data/"], ignoreChecksums: false }
 * ```
 */
export function splitIcechunkLocation(url: string): IcechunkLocation {
  const match = /^icechunk\+([a-zA-Z][a-zA-Z0-9+.-]*:\/\/.*)$/.exec(url);
  if (match === null) throw new ZarrError("INVALID_ARGUMENT", `Invalid Icechunk location ${JSON.stringify(url)}: expected icechunk+<store URL>, e.g. icechunk+s3://bucket/repo`);
  let inner = match[1];
  const query = inner.indexOf("?");
  const out: IcechunkLocation = { repository: inner, branch: undefined, tag: undefined, snapshot: undefined, containers: [], ignoreChecksums: false };
  if (query < 0) return out;
  const kept: string[] = [];
  for (const part of inner.slice(query + 1).split("&")) {
    const eq = part.indexOf("=");
    const name = eq < 0 ? part : part.slice(0, eq);
    let value: string;
    try {
      value = decodeURIComponent(eq < 0 ? "" : part.slice(eq + 1));
    } catch {
      throw new ZarrError("INVALID_ARGUMENT", `Invalid Icechunk location ${JSON.stringify(url)}: bad percent-encoding in ${JSON.stringify(part)}`);
    }
    if (name === "branch" || name === "tag" || name === "snapshot") {
      if (out[name] !== undefined) throw new ZarrError("INVALID_ARGUMENT", `Invalid Icechunk location ${JSON.stringify(url)}: ${name} given twice`);
      out[name] = value;
    } else if (name === "container") out.containers.push(value);
    else if (name === "checksums" && value === "ignore") out.ignoreChecksums = true;
    else kept.push(part);
  }
  inner = inner.slice(0, query) + (kept.length > 0 ? `?${kept.join("&")}` : "");
  return { ...out, repository: inner };
}

/**
 * Serves `icechunk+file`, `icechunk+http(s)`, `icechunk+s3`, `icechunk+gs`, `icechunk+az`
 * (and `abfs`/`abfss`) in `openStore` from @zarr/core: a read-only store over a branch
 * (default `main`), `?tag=` or `?snapshot=` of the repository. Virtual chunks are read only
 * from the containers named by `?container=` (repeatable), through the registry's store for
 * each container's scheme.
 *
 * @example
 * ```ts
 * const registry = createRegistry([fileStoreEntry, icechunkStoreEntry]);
 * const store = await openStore("icechunk+file:///data/repo?tag=v1", { registry });
 * ```
 */
export const icechunkStoreEntry: StoreEntry = {
  type: "store",
  name: "icechunk",
  schemes: INNER_SCHEMES.map((s) => `icechunk+${s}`),
  package: "@zarr/store-icechunk",
  async open(url, options) {
    const location = splitIcechunkLocation(url);
    const openInner = options.openInner;
    if (typeof openInner !== "function") {
      throw new ZarrError("INVALID_ARGUMENT", `Opening ${JSON.stringify(url)} needs options.openInner to open the repository's store (use openStore from @zarr/core)`);
    }
    const storage = await openInner(location.repository);
    const stores = Object.fromEntries(INNER_SCHEMES.map((s) => [s, (container: string) => openInner(container)]));
    return openIcechunk(storage, {
      branch: location.branch,
      tag: location.tag,
      snapshot: location.snapshot,
      signal: options.signal,
      virtualChunks: { containers: location.containers, stores, verifyChecksums: !location.ignoreChecksums },
    });
  },
};
