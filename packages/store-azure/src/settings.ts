/** Where an AzureStore sends requests and how it authorises them, from its options and the environment. */
import { ZarrError } from "@zarr/spec";

/** The Blob service REST version every request names (`x-ms-version`). */
export const AZURE_API_VERSION = "2021-08-06";

/** The settings resolved here (see `AzureStoreOptions`). */
export interface AzureAccessOptions {
  account?: string;
  endpoint?: string;
  sasToken?: string;
  anonymous?: boolean;
  env?: Record<string, string | undefined>;
}

/** The account's Blob service URL (no trailing `/`) and the SAS token (no leading `?`), if any. */
export interface AzureResolved {
  endpoint: string;
  sasToken: string | undefined;
}

function invalid(message: string): never {
  throw new ZarrError("INVALID_ARGUMENT", message);
}

function processEnv(): Record<string, string | undefined> {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
}

function checkEndpoint(endpoint: string): string {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return invalid(`Invalid Azure endpoint ${JSON.stringify(endpoint)}: not a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") invalid(`Invalid Azure endpoint ${JSON.stringify(endpoint)}: must be http: or https:`);
  if (url.search !== "" || url.username !== "" || url.password !== "") {
    invalid(`Invalid Azure endpoint ${JSON.stringify(url.origin + url.pathname)}: no query or credentials allowed (pass a SAS token as sasToken)`);
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, "");
}

/** A SAS token without its leading `?`; one without a signature (`sig=`) is refused. */
export function checkSasToken(token: unknown, where: string): string {
  if (typeof token !== "string") return invalid(`Azure ${where} must be a string`);
  const bare = token.replace(/^\?/, "");
  if (!new URLSearchParams(bare).has("sig")) invalid(`Azure ${where} is not a SAS token (it has no sig= parameter)`);
  return bare;
}

/**
 * The endpoint: the `endpoint` option, else `ZARR_AZURE_ENDPOINT`, else
 * `https://ACCOUNT.blob.core.windows.net` with the account from the option or
 * `AZURE_STORAGE_ACCOUNT`. The SAS token: the option, else `AZURE_STORAGE_SAS_TOKEN`
 * (unless `anonymous: true`).
 */
export function resolveAccess(options: AzureAccessOptions): AzureResolved {
  const env = options.env ?? processEnv();
  for (const name of ["account", "endpoint", "sasToken"] as const) {
    if (options[name] !== undefined && typeof options[name] !== "string") invalid(`Azure option \`${name}\` must be a string`);
  }
  if (options.anonymous !== undefined && typeof options.anonymous !== "boolean") invalid("Azure option `anonymous` must be a boolean");
  if (options.anonymous === true && options.sasToken !== undefined) invalid("Azure options `anonymous` and `sasToken` exclude each other");
  let endpoint = options.endpoint ?? (env.ZARR_AZURE_ENDPOINT || undefined);
  if (endpoint === undefined) {
    const account = options.account ?? (env.AZURE_STORAGE_ACCOUNT || undefined);
    if (account === undefined) invalid("No Azure storage account: pass `account` (or `endpoint`), or set AZURE_STORAGE_ACCOUNT");
    if (!/^[a-z0-9]{3,24}$/.test(account)) invalid(`Invalid Azure storage account name ${JSON.stringify(account)}`);
    endpoint = `https://${account}.blob.core.windows.net`;
  }
  let sasToken: string | undefined;
  if (options.sasToken !== undefined) sasToken = checkSasToken(options.sasToken, "option `sasToken`");
  else if (options.anonymous !== true && env.AZURE_STORAGE_SAS_TOKEN) sasToken = checkSasToken(env.AZURE_STORAGE_SAS_TOKEN, "AZURE_STORAGE_SAS_TOKEN");
  return { endpoint: checkEndpoint(endpoint), sasToken };
}
