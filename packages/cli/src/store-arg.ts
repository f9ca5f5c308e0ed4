/**
 * Turning the STORE argument of a command into a store. Every command opens its store
 * here, so new kinds of location (URLs, zip files) are added in one place.
 */
import { stat } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { openStore, storeScheme } from "@zarr/core";
import { type Store, ZarrError } from "@zarr/spec";
import { FileSystemStore } from "@zarr/store-fs";
import { commandHeaders } from "./http-headers.js";
import { type ReadLimits, storeLimitSettings } from "./read-limits.js";
import { cliRegistry } from "./registry.js";

/** Options of {@link openStoreArg}. */
export interface OpenStoreArgOptions {
  /** The command writes: the store may not exist yet (it is created on the first write). */
  writable: boolean;
  /** `--header` values (`Name: value`), for http(s) stores, added to those of `ZARR_HTTP_HEADERS`. */
  headers?: readonly string[];
  /** The command's `--max-value-bytes` and `--timeout` (see `readLimits`), for remote stores. */
  limits: ReadLimits;
}

/** The scheme whose adapter reads the bytes: `zip+https://…`, `reference+https://…` and `icechunk+https://…` are read over https. */
function transportScheme(arg: string): string {
  return /^(?:zip|reference|icechunk)\+([A-Za-z][A-Za-z0-9+.-]*):/.exec(arg)?.[1].toLowerCase() ?? storeScheme(arg);
}

/**
 * Opens the store a command-line argument names. For now a local directory (or a
 * `file://` URL) opens as a FileSystemStore; URLs of other schemes (`https://…`, `s3://…`)
 * and zip archives (`…/data.zarr.zip`, `zip+https://…`) open through the registry's store
 * adapters (`UNSUPPORTED` names the package when none serves the scheme). A read-only
 * open of a directory that does not exist throws `NODE_NOT_FOUND`; a path that is a file
 * throws `INVALID_ARGUMENT`.
 *
 * http(s) stores get the headers of `ZARR_HTTP_HEADERS` and `options.headers` (`--header`)
 * and go through proxies from `HTTPS_PROXY`/`HTTP_PROXY`/`NO_PROXY`. Remote stores get
 * `options.limits`: the largest value read and the inactivity limit of a request.
 *
 * @example
 * ```ts
 * const limits = readLimits("info", {});
 * const store = await openStoreArg("data.zarr", { writable: false, limits });
 * const remote = await openStoreArg("https://example.com/data.zarr", { writable: false, headers: ["Authorization: Bearer …"], limits });
 * ```
 */
export async function openStoreArg(arg: string, options: OpenStoreArgOptions): Promise<Store> {
  let dir = arg;
  if (storeScheme(arg) !== "file") {
    // URLs (http, s3, ...) and zip archives go through the registry's store adapters;
    // HTTP(S) goes over nodeFetch (our HTTP/1.1 client on node:net), faster than the global
    // fetch (bench/http.mjs --transports), with proxies from the environment; loaded here so
    // that local stores do not pay for it. Headers come from ZARR_HTTP_HEADERS and --header.
    const headers = commandHeaders(options.headers);
    return openStore(arg, {
      ...storeLimitSettings(transportScheme(arg), options.limits),
      registry: cliRegistry(),
      readOnly: !options.writable,
      fetch: await cliFetch(),
      headers,
    });
  }
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(arg)) {
    try {
      dir = fileURLToPath(arg);
    } catch (error) {
      throw new ZarrError("INVALID_ARGUMENT", `Invalid file URL "${arg}"`, { cause: error });
    }
  }
  if (dir === "") throw new ZarrError("INVALID_ARGUMENT", "The store path is empty");
  let isDirectory: boolean | undefined;
  try {
    isDirectory = (await stat(dir)).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") {
      throw new ZarrError("STORE_FAILED", `Cannot open the store "${arg}": ${(error as Error).message}`, { cause: error });
    }
  }
  if (isDirectory === false) throw new ZarrError("INVALID_ARGUMENT", `The store "${arg}" is not a directory`);
  if (isDirectory === undefined && !options.writable) {
    throw new ZarrError("NODE_NOT_FOUND", `No store at "${arg}": the directory does not exist`);
  }
  // A command is a batch process: blocking chunk reads skip libuv's thread-pool hand-offs.
  return new FileSystemStore(dir, { readOnly: !options.writable, blockingReads: true });
}

/**
 * The CLI's transport: nodeFetch's client with the environment's proxies, and HTTP/2 for
 * https origins that offer it when `ZARR_HTTP2=1`; made once per setting.
 */
async function cliFetch(): Promise<(url: string, init: RequestInit) => Promise<Response>> {
  const { createNodeFetch, proxyFromEnv } = await import("@zarr/store-http/node");
  const http2 = process.env.ZARR_HTTP2 === "1";
  const key = JSON.stringify([proxyFromEnv(), http2]);
  if (fetches.get(key) === undefined) fetches.set(key, createNodeFetch({ proxy: proxyFromEnv(), http2 }));
  return fetches.get(key) as (url: string, init: RequestInit) => Promise<Response>;
}
const fetches = new Map<string, (url: string, init: RequestInit) => Promise<Response>>();
