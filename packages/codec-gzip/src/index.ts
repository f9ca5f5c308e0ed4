/**
 * @zarr/codec-gzip: the `gzip` (RFC 1952) and `zlib` (RFC 1950) bytes→bytes codecs.
 * In Node they run on node:zlib asynchronously (libuv's thread pool); elsewhere on fflate.
 * The choice is made by the package's `#backend` subpath import ("node" condition).
 */

import type { CodecEntry } from "@zarr/spec";
import { backend } from "#backend";
import { createGzipEntry, createZlibEntry } from "./codec.js";

export type { DeflateConfiguration } from "./configuration.js";

/**
 * The `gzip` codec entry (alias `numcodecs.gzip`), configuration `{level: 0–9}`.
 *
 * @example
 * ```ts
 * const registry = createRegistry([gzip]);
 * ```
 */
// Pure calls (no side effects): an app importing one of the two entries gets the other
// dropped from its bundle.
export const gzip: CodecEntry = /* @__PURE__ */ createGzipEntry(backend);

/** The `zlib` codec entry (alias `numcodecs.zlib`), configuration `{level: 0–9}`. */
export const zlib: CodecEntry = /* @__PURE__ */ createZlibEntry(backend);

/** The decoder in use: `"node:zlib"` in Node, `"DecompressionStream"` in browsers (fflate where the stream refuses the data, and for encoding), `"fflate"` in runtimes without either. */
export const backendName: string = backend.name;
