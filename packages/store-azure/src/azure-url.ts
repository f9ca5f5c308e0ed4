/**
 * Parsing Azure Blob Storage store URLs:
 * - `az://container/prefix` and `abfs[s]://container/prefix`: the account comes from the
 *   options or `AZURE_STORAGE_ACCOUNT`;
 * - `abfs[s]://container@ACCOUNT.dfs.core.windows.net/prefix` (Data Lake Gen2 form): the
 *   account from the host, reached through its Blob endpoint;
 * - `azure+https://ACCOUNT.blob.core.windows.net/container/prefix[?SAS]`: the address the
 *   Azure portal shows, with `azure+` in front because plain `https://` URLs belong to the
 *   HTTP store; on other hosts (Azurite, `azure+http://127.0.0.1:10000/devstoreaccount1/container`)
 *   the account is the first path segment. A query string there is the SAS token.
 */
import { ZarrError } from "@zarr/spec";

/** What a store URL says. */
export interface ParsedAzureUrl {
  container: string;
  prefix: string;
  /** The storage account, when the URL names one. */
  account?: string;
  /** The account's Blob service URL (`https://ACCOUNT.blob.core.windows.net`), when the URL gives it. */
  endpoint?: string;
  /** A SAS token from the URL (`sv=…&sig=…`). */
  sasToken?: string;
  anonymous?: boolean;
}

function invalid(url: string, why: string): never {
  throw new ZarrError("INVALID_ARGUMENT", `Invalid Azure URL ${JSON.stringify(url)}: ${why}`);
}

function decodePath(url: string, path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return invalid(url, "bad percent-encoding in the path");
  }
}

/** `container/some/prefix` → container and prefix. */
function splitContainer(url: string, path: string): { container: string; prefix: string } {
  const [container, ...rest] = decodePath(url, path).replace(/^\/+/, "").split("/");
  if (container === "") invalid(url, "no container");
  return { container, prefix: rest.join("/") };
}

function parseQuery(url: string, query: string | undefined, parsed: ParsedAzureUrl): void {
  for (const [name, value] of new URLSearchParams(query ?? "")) {
    if (name === "account" || name === "endpoint") parsed[name] = value;
    else if (name === "anonymous") {
      if (value === "" || value === "true" || value === "1") parsed.anonymous = true;
      else if (value === "false" || value === "0") parsed.anonymous = false;
      else invalid(url, `anonymous must be true or false, not ${JSON.stringify(value)}`);
    } else invalid(url, `unknown option ${JSON.stringify(name)} (known: account, endpoint, anonymous; a SAS token goes in the options or AZURE_STORAGE_SAS_TOKEN)`);
  }
}

/**
 * Parses any of the URL forms above (see the module comment). Unknown query names in
 * `az://` and `abfs://` URLs are errors, so a typo cannot send requests elsewhere.
 *
 * @example
 * ```ts
 * parseAzureUrl("az://climate/era5.zarr?account=myaccount");
 * // { container: "climate", prefix: "era5.zarr", account: "myaccount" }
 * parseAzureUrl("azure+https://myaccount.blob.core.windows.net/climate/era5.zarr");
 * // { container: "climate", prefix: "era5.zarr", account: "myaccount", endpoint: "https://myaccount.blob.core.windows.net" }
 * ```
 */
export function parseAzureUrl(url: string): ParsedAzureUrl {
  const m = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)(?:\?([^#]*))?(?:#.*)?$/i.exec(url);
  if (m === null) return invalid(url, "expected az://container/prefix");
  const [, rawScheme, authority, path, query] = m;
  const scheme = rawScheme.toLowerCase();
  if (scheme === "az" || scheme === "abfs" || scheme === "abfss") {
    const at = authority.lastIndexOf("@");
    if (authority === "") invalid(url, "no container");
    if (at === -1) {
      const parsed: ParsedAzureUrl = { ...splitContainer(url, authority + path) };
      parseQuery(url, query, parsed);
      return parsed;
    }
    // abfss://container@account.dfs.core.windows.net/prefix: the same account's Blob endpoint.
    const host = authority.slice(at + 1).toLowerCase();
    const account = /^([a-z0-9]{3,24})\.(?:dfs|blob)\.(core\.[a-z0-9.]+)$/.exec(host);
    if (account === null) invalid(url, `expected container@ACCOUNT.dfs.core.windows.net, not ${JSON.stringify(authority)}`);
    const container = decodePath(url, authority.slice(0, at));
    if (container === "") invalid(url, "no container");
    const parsed: ParsedAzureUrl = { container, prefix: decodePath(url, path).replace(/^\/+/, ""), account: account[1], endpoint: `https://${account[1]}.blob.${account[2]}` };
    parseQuery(url, query, parsed);
    return parsed;
  }
  if (scheme !== "azure+https" && scheme !== "azure+http") return invalid(url, "expected az://, abfs://, abfss://, azure+https:// or azure+http://");
  let base: URL;
  try {
    base = new URL(`${scheme.slice("azure+".length)}://${authority}`);
  } catch {
    return invalid(url, "bad host");
  }
  if (base.username !== "" || base.password !== "") invalid(url, "no credentials in the URL (use a SAS token)");
  const host = /^([a-z0-9]{3,24})\.blob\./.exec(base.hostname);
  const parsed: ParsedAzureUrl = { container: "", prefix: "" };
  if (host !== null) {
    Object.assign(parsed, splitContainer(url, path), { account: host[1], endpoint: base.origin });
  } else {
    // Azurite and other emulators: http://host:port/ACCOUNT/container/prefix.
    const [account, ...rest] = decodePath(url, path).replace(/^\/+/, "").split("/");
    if (account === "" || account === undefined) invalid(url, "no account in the path (expected /ACCOUNT/container/prefix)");
    Object.assign(parsed, splitContainer(url, rest.map(encodeURIComponent).join("/")), { account, endpoint: `${base.origin}/${account}` });
  }
  if (query !== undefined && query !== "") parsed.sasToken = query;
  return parsed;
}
