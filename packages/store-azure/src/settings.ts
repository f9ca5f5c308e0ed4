/** Where an AzureStore sends requests and how it authorises them, from its options and the environment. */
import { ZarrError } from "@zarr/spec";
import { decodeAccountKey } from "./shared-key.js";

/** The Blob service REST version every request names (`x-ms-version`). */
export const AZURE_API_VERSION = "2021-08-06";

/** The settings resolved here (see `AzureStoreOptions`). */
export interface AzureAccessOptions {
  account?: string;
  endpoint?: string;
  sasToken?: string;
  accountKey?: string;
  anonymous?: boolean;
  env?: Record<string, string | undefined>;
}

/** The account's Blob service URL (no trailing `/`) and how requests are authorised. */
export interface AzureResolved {
  endpoint: string;
  /** The SAS token (no leading `?`), if any. */
  sasToken: string | undefined;
  /** The account and its decoded key, for Shared Key signatures. */
  sharedKey: { account: string; key: Uint8Array<ArrayBuffer> } | undefined;
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
 * `AZURE_STORAGE_ACCOUNT`. Authorisation: the `sasToken` or `accountKey` option (at most
 * one, and neither with `anonymous: true`), else `AZURE_STORAGE_SAS_TOKEN`, else
 * `AZURE_STORAGE_KEY` (Shared Key, with the account name), else none.
 */
export function resolveAccess(options: AzureAccessOptions): AzureResolved {
  const env = options.env ?? processEnv();
  for (const name of ["account", "endpoint", "sasToken", "accountKey"] as const) {
    if (options[name] !== undefined && typeof options[name] !== "string") invalid(`Azure option \`${name}\` must be a string`);
  }
  if (options.anonymous !== undefined && typeof options.anonymous !== "boolean") invalid("Azure option `anonymous` must be a boolean");
  const given = (["sasToken", "accountKey"] as const).filter((name) => options[name] !== undefined).map((name) => `\`${name}\``);
  if (options.anonymous === true) given.push("`anonymous`");
  if (given.length > 1) invalid(`Azure options ${given.join(" and ")} exclude each other`);
  const account = options.account ?? (env.AZURE_STORAGE_ACCOUNT || undefined);
  if (account !== undefined && !/^[a-z0-9]{3,24}$/.test(account)) invalid(`Invalid Azure storage account name ${JSON.stringify(account)}`);
  let endpoint = options.endpoint ?? (env.ZARR_AZURE_ENDPOINT || undefined);
  if (endpoint === undefined) {
    if (account === undefined) invalid("No Azure storage account: pass `account` (or `endpoint`), or set AZURE_STORAGE_ACCOUNT");
    endpoint = `https://${account}.blob.core.windows.net`;
  }
  const resolved: AzureResolved = { endpoint: checkEndpoint(endpoint), sasToken: undefined, sharedKey: undefined };
  const sharedKey = (key: string) => {
    if (account === undefined) invalid("An Azure account key needs the account name: pass `account` or set AZURE_STORAGE_ACCOUNT");
    return { account, key: decodeAccountKey(key) };
  };
  if (options.sasToken !== undefined) resolved.sasToken = checkSasToken(options.sasToken, "option `sasToken`");
  else if (options.accountKey !== undefined) resolved.sharedKey = sharedKey(options.accountKey);
  else if (options.anonymous !== true && env.AZURE_STORAGE_SAS_TOKEN) resolved.sasToken = checkSasToken(env.AZURE_STORAGE_SAS_TOKEN, "AZURE_STORAGE_SAS_TOKEN");
  else if (options.anonymous !== true && env.AZURE_STORAGE_KEY) resolved.sharedKey = sharedKey(env.AZURE_STORAGE_KEY);
  return resolved;
}
