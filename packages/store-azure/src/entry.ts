/** The registry entry that opens `az://`, `abfs://`, `abfss://` and `azure+https://` URLs as an AzureStore. */
import { type StoreEntry, type StoreOpenOptions, ZarrError } from "@zarr/spec";
import { AzureStore, type AzureStoreOptions } from "./azure-store.js";
import { parseAzureUrl } from "./azure-url.js";

// The openStore settings handed on to AzureStore, with the types they must have.
const EXPECTED: Record<string, string> = {
  account: "string",
  endpoint: "string",
  sasToken: "string",
  accountKey: "string",
  anonymous: "boolean",
  retries: "number",
  timeout: "number",
  fetch: "function",
  maxMetadataBytes: "number",
  maxValueBytes: "number",
  listPageSize: "number",
  env: "object",
};

function settingsFrom(options: StoreOpenOptions): Partial<AzureStoreOptions> {
  const out: Record<string, unknown> = {};
  for (const [name, expected] of Object.entries(EXPECTED)) {
    const value = options[name];
    if (value === undefined) continue;
    const type = value === null ? "null" : typeof value;
    if (type !== expected) throw new ZarrError("INVALID_ARGUMENT", `Azure store option "${name}" must be ${expected}, not ${type}`);
    out[name] = value;
  }
  return out as Partial<AzureStoreOptions>;
}

/**
 * Serves the `az`, `abfs`, `abfss`, `azure+https` and `azure+http` schemes in `openStore`
 * (from @zarr/core); see `parseAzureUrl` for the URL forms. Settings in the options
 * (`account`, `endpoint`, `sasToken`, `accountKey`, `anonymous`, `retries`, `timeout`, `fetch`,
 * `maxMetadataBytes`, `maxValueBytes`, `listPageSize`, `env`, `readOnly`) override the URL's.
 *
 * @example
 * ```ts
 * import { createRegistry, openStore } from "@zarr/core";
 * const store = await openStore("az://climate/era5.zarr", { registry: createRegistry([azureStoreEntry]), account: "myaccount" });
 * ```
 */
export const azureStoreEntry: StoreEntry = {
  type: "store",
  name: "az",
  schemes: ["az", "abfs", "abfss", "azure+https", "azure+http"],
  package: "@zarr/store-azure",
  open(url, options) {
    const settings = settingsFrom(options);
    const { container, prefix, ...fromUrl } = parseAzureUrl(url);
    // An account in the options means its own endpoint, unless the options name one too.
    if (settings.account !== undefined && settings.endpoint === undefined) delete fromUrl.endpoint;
    if (settings.sasToken !== undefined || settings.accountKey !== undefined) delete fromUrl.anonymous;
    if (settings.anonymous === true || settings.accountKey !== undefined) delete fromUrl.sasToken;
    const readOnly = options.readOnly === true ? { readOnly: true } : {};
    return new AzureStore({ ...fromUrl, ...settings, ...readOnly, container, prefix });
  },
};
