/**
 * The interface both compression backends implement: node:zlib in Node
 * (`backend.node.ts`), fflate everywhere else (`backend.browser.ts`). `index.ts` picks one
 * through the package's `#backend` subpath import. Backends throw plain errors; the codec
 * turns them into `ZarrError`s that name the chunk.
 *
 * Every decoder takes `maxOutput`, the most bytes it may produce: past it, it stops at once
 * (without allocating more) and throws an {@link OutputLimitExceeded}.
 */

// The error lives in @zarr/spec (see `OutputLimitExceeded` there for why); re-exported for
// the modules and tests that know it from here.
export { OutputLimitExceeded } from "@zarr/spec";

export interface DeflateBackend {
  /** Which implementation this is: `"node:zlib"` or `"fflate"`. */
  readonly name: string;
  /**
   * True when blocking decoders suit the calling thread: a worker thread (it has nothing
   * else to do meanwhile, and skips the hand-off to a thread pool), or a backend that only
   * blocks. False on Node's main thread, where asynchronous zlib runs on libuv's pool.
   */
  readonly preferBlocking: boolean;
  /** One gzip member (RFC 1952) holding `bytes`. `level` is 0–9, or -1 for zlib's default (6). */
  compressGzip(bytes: Uint8Array, level: number): Uint8Array | Promise<Uint8Array>;
  /** The concatenated contents of every gzip member in `bytes` (trailing zero padding allowed). */
  decompressGzip(bytes: Uint8Array, maxOutput: number): Uint8Array | Promise<Uint8Array>;
  /** A zlib stream (RFC 1950) holding `bytes`. */
  compressZlib(bytes: Uint8Array, level: number): Uint8Array | Promise<Uint8Array>;
  /** The contents of the zlib stream in `bytes`. */
  decompressZlib(bytes: Uint8Array, maxOutput: number): Uint8Array | Promise<Uint8Array>;
  /**
   * Blocking forms of the decoders, for worker threads: there blocking is the point, and it
   * saves the hand-off to and from a thread pool. Backends that only block leave them out.
   */
  decompressGzipSync?(bytes: Uint8Array, maxOutput: number): Uint8Array;
  decompressZlibSync?(bytes: Uint8Array, maxOutput: number): Uint8Array;
  /**
   * Decodes into the start of `out` and returns that view, or `undefined` when it cannot
   * (the data may not fit, or takes a path only the other decoders handle): the caller then
   * uses them. For worker threads that keep one output buffer from chunk to chunk.
   */
  decompressInto?(bytes: Uint8Array, format: "gzip" | "zlib", out: Uint8Array): Uint8Array | undefined;
  /** Starts loading the decoder's code where it loads on first use (see `CodecEntry.prefetch`). */
  prefetch?(): void;
}
