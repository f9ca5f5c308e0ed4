/** `LoggingStore`: one log line per store call, with its duration and byte count. */
import type { ByteRange, ReadableStore, Store } from "@zarr/spec";
import { type CallOutcome, type InstrumentedMembers, instrumentStore, type StoreCall } from "./instrument.js";

/** `bytes=a-b` as HTTP writes it (`bytes=a-` to the end, `bytes=-n` for a suffix). */
export function formatByteRange(range: ByteRange): string {
  if ("suffixLength" in range) return `bytes=-${range.suffixLength}`;
  if (range.length === undefined) return `bytes=${range.offset}-`;
  return `bytes=${range.offset}-${range.offset + range.length - 1}`;
}

function resultText(call: StoreCall, outcome: CallOutcome): string {
  if (outcome.error !== undefined) {
    const message = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
    return `failed: ${message}`;
  }
  if (outcome.missing) return "missing";
  switch (call.method) {
    case "getSize":
      return `${outcome.size} B`;
    case "list":
    case "listPrefix":
    case "listDir":
      return `${outcome.entries} entries`;
    case "delete":
    case "deletePrefix":
      return "done";
    default:
      return `${outcome.bytes} B`;
  }
}

/**
 * Formats one call as a log line: method, key, range, result and duration, e.g.
 * `getRange "t/c/0/0" bytes=-16: 16 B in 21.3 ms`.
 */
export function formatCall(call: StoreCall, outcome: CallOutcome, milliseconds: number): string {
  const range = call.range === undefined ? "" : ` ${formatByteRange(call.range)}`;
  return `${call.method} ${JSON.stringify(call.key)}${range}: ${resultText(call, outcome)} in ${milliseconds.toFixed(1)} ms`;
}

/**
 * A transparent wrapper that logs each call when it ends, with its duration and the bytes
 * moved (`get "zarr.json": 412 B in 20.4 ms`, `get "c/9/9": missing in 19.8 ms`,
 * `list "": 37 entries in 3.1 ms`, failures with their message). Listing calls are logged
 * when their iteration stops. Like `CountingStore` it has exactly the inner store's
 * methods, so wrapping changes nothing but the log.
 *
 * @example
 * ```ts
 * const logged = new LoggingStore(new HttpStore("https://example.com/data.zarr"));
 * await openArray(logged); // logs: get "zarr.json": 412 B in 20.4 ms
 * const quiet = new LoggingStore(store, (line) => lines.push(line));
 * ```
 */
// The store members are assigned in the constructor: exactly those of the inner store.
export interface LoggingStore extends InstrumentedMembers {}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: instrumentStore sets the merged members
export class LoggingStore implements ReadableStore {
  /** The wrapped store. */
  readonly inner: Store;
  /** Where lines go (default `console.error`). */
  readonly log: (line: string) => void;

  constructor(inner: Store, log: (line: string) => void = console.error) {
    this.inner = inner;
    this.log = log;
    Object.assign(
      this,
      instrumentStore(inner, (call) => {
        const start = performance.now();
        return (outcome) => this.log(formatCall(call, outcome, performance.now() - start));
      }),
    );
  }
}
