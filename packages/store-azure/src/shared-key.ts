/**
 * Shared Key authorisation ("Authorize with Shared Key" in the Azure Storage REST docs):
 * each request is signed with the account key, HMAC-SHA256 over its verb, standard
 * headers, `x-ms-*` headers and resource. Done in a `fetch` wrapper, nearest the network,
 * so every request actually sent (the HEAD of a suffix read too) is signed as sent. Uses
 * Web Crypto, so it runs in browsers and Node alike.
 */
import { ZarrError } from "@zarr/spec";
import type { FetchLike } from "@zarr/store-http";

// The standard headers in the string to sign, in order, between the verb and x-ms-*.
const SIGNED_HEADERS = ["content-encoding", "content-language", "content-length", "content-md5", "content-type", "date", "if-modified-since", "if-match", "if-none-match", "if-unmodified-since", "range"] as const;

function base64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The account key's bytes; `INVALID_ARGUMENT` (without quoting the key) when it is not base64. */
export function decodeAccountKey(key: string): Uint8Array<ArrayBuffer> {
  let binary: string;
  try {
    binary = atob(key);
  } catch {
    throw new ZarrError("INVALID_ARGUMENT", "The Azure account key is not base64");
  }
  if (binary.length === 0) throw new ZarrError("INVALID_ARGUMENT", "The Azure account key is empty");
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** `/ACCOUNT/path` plus each query parameter, lower-cased and sorted, as `\nname:v1,v2`. */
function canonicalResource(account: string, url: URL): string {
  const params = new Map<string, string[]>();
  for (const [name, value] of url.searchParams) {
    const lower = name.toLowerCase();
    params.set(lower, [...(params.get(lower) ?? []), value]);
  }
  let out = `/${account}${url.pathname}`;
  for (const name of [...params.keys()].sort()) out += `\n${name}:${(params.get(name) as string[]).sort().join(",")}`;
  return out;
}

/** The string to sign for a request with these (final) headers and body length. */
export function stringToSign(method: string, url: string, headers: Headers, bodyLength: number, account: string): string {
  const standard = SIGNED_HEADERS.map((name) => {
    // Since version 2015-02-21 a zero Content-Length is signed as the empty string.
    if (name === "content-length") return bodyLength === 0 ? "" : String(bodyLength);
    return headers.get(name) ?? "";
  });
  // Headers hands out lower-case names, a repeated name's values already joined.
  const ms: [string, string][] = [];
  headers.forEach((value, name) => {
    if (name.startsWith("x-ms-")) ms.push([name, value.trim()]);
  });
  ms.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const msHeaders = ms.map(([name, value]) => `${name}:${value}\n`).join("");
  return `${method}\n${standard.join("\n")}\n${msHeaders}${canonicalResource(account, new URL(url))}`;
}

/** Wraps `fetch` so that every request carries `x-ms-date` and `Authorization: SharedKey ACCOUNT:signature`. */
export function sharedKeyFetch(fetch: FetchLike, account: string, accountKey: Uint8Array<ArrayBuffer>): FetchLike {
  let key: Promise<CryptoKey> | undefined;
  return async (url, init) => {
    key ??= crypto.subtle.importKey("raw", accountKey, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    const headers = new Headers(init.headers);
    headers.set("x-ms-date", new Date().toUTCString());
    const body = init.body;
    const length = body instanceof Uint8Array ? body.byteLength : body instanceof ArrayBuffer ? body.byteLength : 0;
    const toSign = stringToSign(init.method ?? "GET", url, headers, length, account);
    const signature = await crypto.subtle.sign("HMAC", await key, new TextEncoder().encode(toSign));
    headers.set("authorization", `SharedKey ${account}:${base64(new Uint8Array(signature))}`);
    return fetch(url, { ...init, headers });
  };
}
