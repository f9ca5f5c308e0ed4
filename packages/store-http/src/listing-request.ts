/**
 * One listing request (`GET …?prefix=…`): retried on network errors, 429 and 5xx with
 * exponential backoff, each attempt under a time limit, the answer read up to a size cap.
 * For stores built on `HttpStore` whose servers can list (Cloud Storage's XML API, Azure
 * Blob Storage): object reads and writes go through `HttpStore`, listing through this.
 */
import { type DirListing, validateKey, validatePrefix, ZarrError } from "@zarr/spec";
import type { FetchLike } from "./options.js";

/** Largest listing page read (a page of 1000 keys is well under 1 MiB). */
export const MAX_LISTING_BYTES = 16 * 1024 * 1024;

/** How listing requests are sent. */
export interface ListingTransport {
  fetch: FetchLike;
  /** Headers per attempt (a fresh bearer token each time). */
  headers: () => Promise<Record<string, string>>;
  /** Retries after the first attempt. */
  retries: number;
  /** Per-attempt time limit in ms (`Infinity`: none). */
  timeout: number;
  /** Largest answer read, in bytes (`STORE_TOO_LARGE` beyond). Default `MAX_LISTING_BYTES`. */
  maxBytes?: number;
}

function retryable(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

async function boundedText(response: Response, what: string, limit: number): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return "";
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > limit) {
      await reader.cancel();
      throw new ZarrError("STORE_TOO_LARGE", `${what}: the listing answer is longer than ${limit} bytes (not retried)`);
    }
    parts.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return new TextDecoder().decode(bytes);
}

function aborted(what: string, signal: AbortSignal): ZarrError {
  return new ZarrError("ABORTED", `${what} was aborted`, { cause: signal.reason });
}

/**
 * GETs `url` and resolves the body of a 200 answer as text. `describe` names the request
 * in errors: it must not contain secrets (no query string with a SAS signature, no token).
 * Failures reject with `STORE_FAILED` quoting the status and the service's error code
 * (`HTTP 404 NoSuchBucket`): a missing bucket or container is an error, not an empty listing.
 */
export async function fetchListing(transport: ListingTransport, url: string, describe: string, signal: AbortSignal | undefined): Promise<string> {
  const what = `Listing ${describe}`;
  const limit = transport.maxBytes ?? MAX_LISTING_BYTES;
  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted) throw aborted(what, signal);
    const signals = [signal, Number.isFinite(transport.timeout) ? AbortSignal.timeout(transport.timeout) : undefined].filter((s) => s !== undefined);
    let problem: string;
    try {
      const response = await transport.fetch(url, { method: "GET", headers: await transport.headers(), signal: AbortSignal.any(signals) });
      if (response.status === 200) return await boundedText(response, what, limit);
      const text = await boundedText(response, what, 64 * 1024).catch(() => "");
      const code = firstTextOf(text);
      problem = `HTTP ${response.status}${code ? ` ${code}` : ""}`;
      if (!retryable(response.status)) throw new ZarrError("STORE_FAILED", `${what} failed: ${problem} (not retried)`);
    } catch (error) {
      if (signal?.aborted) throw aborted(what, signal);
      if (error instanceof ZarrError) throw error;
      const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
      problem = `network error: ${error instanceof Error ? error.message : String(error)}${cause}`;
    }
    if (attempt > transport.retries) {
      throw new ZarrError("STORE_FAILED", `${what} failed after ${attempt} attempt${attempt === 1 ? "" : "s"}: ${problem}`);
    }
    await sleep(Math.random() * Math.min(5000, 100 * 2 ** (attempt - 1)), signal);
  }
}

/** The `<Code>` of an XML error document (GCS, S3 and Azure all use it), or `""`. */
function firstTextOf(xml: string): string {
  const m = /<Code>([^<]{1,100})<\/Code>/.exec(xml);
  return m === null ? "" : m[1];
}

/** What {@link deleteListed} needs of a store: listing and deleting. */
export interface ListDeleteStore {
  listPrefix(prefix: string, options?: { signal?: AbortSignal }): AsyncIterable<string>;
  delete(key: string, options?: { signal?: AbortSignal }): Promise<void>;
}

/**
 * Deletes every key under `prefix` for object stores whose API has no batch delete (the
 * GCS XML API, Azure Blob Storage): lists the keys first, then deletes them `concurrency`
 * at a time.
 *
 * @example
 * ```ts
 * await deleteListed(store, "t2m/", { signal });
 * ```
 */
export async function deleteListed(store: ListDeleteStore, prefix: string, options?: { signal?: AbortSignal }, concurrency = 8): Promise<void> {
  const keys: string[] = [];
  for await (const key of store.listPrefix(prefix, options)) keys.push(key);
  let next = 0;
  const worker = async () => {
    while (next < keys.length) await store.delete(keys[next++], options);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, keys.length) }, worker));
}

/** One page of an object listing: full object names, and common prefixes (ending in the delimiter). */
export interface ListingPage {
  names: readonly string[];
  prefixes: readonly string[];
}

/** True for object names that are valid store keys (folder markers such as `a/`, and `..` segments, are not). */
export function isStoreKey(name: string): boolean {
  try {
    validateKey(name);
    return true;
  } catch {
    return false;
  }
}

/**
 * A store's prefix inside its bucket or container, normalised: no leading `/`, one trailing
 * `/` unless empty. `what` names it in the error (`"The GCS prefix"`).
 */
export function objectPrefix(prefix: unknown, what: string): string {
  if (prefix === undefined) return "";
  if (typeof prefix !== "string") throw new ZarrError("INVALID_ARGUMENT", `${what} must be a string`);
  const trimmed = prefix.replace(/^\/+/, "").replace(/\/+$/, "");
  if (trimmed === "") return "";
  validatePrefix(`${trimmed}/`);
  return `${trimmed}/`;
}

/** The keys of listing `pages` (of everything under `storePrefix`), relative to it; names that are not valid keys are skipped. */
export async function* keysOfPages(pages: AsyncIterable<ListingPage>, storePrefix: string): AsyncGenerator<string> {
  for await (const page of pages) {
    for (const name of page.names) {
      const key = name.slice(storePrefix.length);
      if (name.startsWith(storePrefix) && isStoreKey(key)) yield key;
    }
  }
}

/** One level of a delimited listing (`pages` of what is under `full`): its keys and child prefixes, sorted, relative to `full`. */
export async function dirOfPages(pages: AsyncIterable<ListingPage>, full: string): Promise<DirListing> {
  const keys = new Set<string>();
  const prefixes = new Set<string>();
  for await (const page of pages) {
    for (const name of page.names) {
      const rest = name.slice(full.length);
      if (name.startsWith(full) && isStoreKey(rest) && !rest.includes("/")) keys.add(rest);
    }
    for (const common of page.prefixes) {
      const rest = common.slice(full.length, -1);
      if (common.startsWith(full) && isStoreKey(rest) && !rest.includes("/")) prefixes.add(rest);
    }
  }
  return { keys: [...keys].sort(), prefixes: [...prefixes].sort() };
}
