/** Opening a store from a URL or path through the registry's store adapters. */
import { type Store, type StoreOpenOptions, ZarrError } from "@zarr/spec";
import { defaultRegistry, type Registry } from "./registry.js";

/**
 * The URL scheme of a store location: `"file"` for plain paths (`data.zarr`,
 * `/abs/data.zarr`, `C:\\data.zarr`), else the part before `://` (`"https"`, `"s3"`,
 * `"zip+s3"`). A plain path or `file:` URL ending in `.zip` is `"zip"`.
 */
export function storeScheme(location: string): string {
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//.exec(location);
  const scheme = m && !/^[a-zA-Z]:[\\/]/.test(location) ? m[1].toLowerCase() : "file";
  if (scheme === "file" && /\.zip\/?$/i.test(location.split("?")[0])) return "zip";
  return scheme;
}

/**
 * Opens the store at `location` (a path or URL) with the adapter the registry has for its
 * scheme; `UNSUPPORTED` names the package to install when there is none.
 *
 * @example
 * ```ts
 * const registry = createRegistry([fileStoreEntry, httpStoreEntry]);
 * const store = await openStore("https://example.com/data.zarr", { registry });
 * const root = await open(store);
 * ```
 */
export async function openStore(
  location: string,
  options: Omit<StoreOpenOptions, "openInner"> & { registry?: Registry } = {},
): Promise<Store> {
  if (typeof location !== "string" || location === "") {
    throw new ZarrError("INVALID_ARGUMENT", "A store location must be a non-empty path or URL");
  }
  const { registry = defaultRegistry, ...rest } = options;
  const scheme = storeScheme(location);
  const entry = await registry.store(scheme, {});
  const storeOptions: StoreOpenOptions = {
    ...rest,
    openInner: (inner: string) => openStore(inner, options),
  };
  return entry.open(location, storeOptions);
}
