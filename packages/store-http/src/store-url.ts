/** Turning the store's base URL and a key into a request URL. */
import { validateKey, ZarrError } from "@zarr/spec";

/** The parts of a base URL that every request URL is built from. */
export interface BaseUrl {
  /** `scheme://host[:port]/path/` — always ending in `/`, without credentials, query or fragment. */
  prefix: string;
  /** The base's query string (`"?a=b"`, or `""`), repeated on every request. */
  query: string;
  /** An `Authorization: Basic ...` value built from credentials in the URL (fetch refuses URLs with credentials). */
  basicAuth: string | undefined;
}

function decodeOrKeep(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text; // not valid percent-encoding: use it as written
  }
}

function base64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
  return btoa(binary);
}

/**
 * Parses the base URL of a store. Relative URLs are resolved against the page address in
 * browsers; elsewhere they are an error, as is any scheme but http and https.
 */
export function parseBaseUrl(base: string | URL): BaseUrl {
  let url: URL;
  try {
    const page = (globalThis as { location?: { href?: string } }).location?.href;
    url = new URL(String(base), page);
  } catch (error) {
    throw new ZarrError("INVALID_ARGUMENT", `Invalid HTTP store URL ${JSON.stringify(String(base))}: not an absolute URL`, {
      cause: error,
    });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ZarrError("INVALID_ARGUMENT", `Invalid HTTP store URL ${JSON.stringify(url.href)}: the scheme must be http or https`);
  }
  let basicAuth: string | undefined;
  if (url.username !== "" || url.password !== "") {
    const credentials = `${decodeOrKeep(url.username)}:${decodeOrKeep(url.password)}`;
    basicAuth = `Basic ${base64(new TextEncoder().encode(credentials))}`;
  }
  const path = url.pathname.endsWith("/") ? url.pathname : `${url.pathname}/`;
  return { prefix: `${url.origin}${path}`, query: url.search, basicAuth };
}

/**
 * The request URL of `key`: each `/`-separated segment percent-encoded (so spaces, `#`,
 * `?`, `%` and non-ASCII text reach the server as part of the path), appended to the
 * base path, followed by the base's query string. Throws `KEY_INVALID` for invalid keys.
 */
export function keyUrl(base: BaseUrl, key: string): string {
  validateKey(key);
  let path = "";
  try {
    for (const segment of key.split("/")) path += path === "" ? encodeURIComponent(segment) : `/${encodeURIComponent(segment)}`;
  } catch (error) {
    // encodeURIComponent throws URIError on a lone UTF-16 surrogate, which has no UTF-8 form.
    throw new ZarrError("KEY_INVALID", `Invalid store key ${JSON.stringify(key)}: not well-formed Unicode`, { key, cause: error });
  }
  return base.prefix + path + base.query;
}

/** The URL as shown in error messages: the query string may hold secrets (signatures, tokens), so it is elided. */
export function displayUrl(url: string): string {
  const q = url.indexOf("?");
  return q === -1 ? url : `${url.slice(0, q)}?…`;
}
