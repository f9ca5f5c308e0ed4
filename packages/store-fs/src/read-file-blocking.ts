/**
 * The hot read paths of `read-file.ts` with blocking system calls, for stores made with
 * `blockingReads` (batch processes such as the CLI): one `open`,
 * `fstat`, `read`/`readv` and `close` each, with no hand-off to libuv's thread pool and
 * back. Reading many small chunks this way takes a fraction of the time (4096 files of
 * 16 KiB: about 45 ms against 170 ms). The results are those of the asynchronous forms.
 */
import fs from "node:fs";
import type { ReadIntoRange } from "@zarr/spec";
import { allocExact, isMissing, isNotAFile, READ_FLAGS, readFullySync, readvFullySync } from "./fs-calls.js";
import { readvGroups } from "./read-file.js";

function withReadableFileSync<T>(
  path: string,
  flags: number,
  body: (fd: number, size: number) => T | undefined,
): T | undefined {
  let fd: number;
  try {
    fd = fs.openSync(path, flags);
  } catch (error) {
    if (isNotAFile(error)) return undefined;
    throw error;
  }
  try {
    const stats = fs.fstatSync(fd);
    if (!stats.isFile()) return undefined;
    return body(fd, stats.size);
  } catch (error) {
    if (isNotAFile(error)) return undefined;
    throw error;
  } finally {
    try {
      fs.closeSync(fd);
    } catch {
      // A read-only descriptor has nothing to flush: a close error cannot lose data.
    }
  }
}

/** {@link readWholeFileInto} of `read-file.ts`, blocking. */
export function readWholeFileIntoSync(path: string, spare: Uint8Array, flags = READ_FLAGS): Uint8Array | undefined {
  return withReadableFileSync(path, flags, (fd, size) => {
    const buffer = size <= spare.length ? spare.subarray(0, size) : allocExact(size);
    const got = readFullySync(fd, buffer, 0);
    // A file truncated by someone else after fstat gives a short read: keep what exists.
    return got === size ? buffer : buffer.subarray(0, got);
  });
}

/** False when nothing is at `path` (or a parent is no directory), without the cost of a thrown error when missing. */
function mayExistSync(path: string): boolean {
  try {
    return fs.statSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch (error) {
    if (isMissing(error)) return false; // ENOTDIR is thrown even without throwIfNoEntry
    throw error;
  }
}

/** What {@link readSmallFileSync} returns for a file larger than its limit (nothing was read). */
export const TOO_LARGE: unique symbol = Symbol("too large");

/**
 * {@link readWholeFile} of `read-file.ts`, blocking, for files of at most `limit` bytes:
 * a larger one is left unread ({@link TOO_LARGE}) for the thread pool, where reads overlap.
 */
export function readSmallFileSync(path: string, limit: number, flags = READ_FLAGS): Uint8Array | undefined | typeof TOO_LARGE {
  // `get` is how metadata is probed (a v2 array has no .zgroup, a v2 node no zarr.json):
  // a failed open costs a thrown error (~40 µs in Node), this check a plain stat (~10 µs).
  // A link is still opened below, with the containment's flags.
  if (!mayExistSync(path)) return undefined;
  return withReadableFileSync(path, flags, (fd, size) => {
    if (size > limit) return TOO_LARGE;
    const buffer = allocExact(size);
    const got = readFullySync(fd, buffer, 0);
    // A file truncated by someone else after fstat gives a short read: keep what exists.
    return got === size ? buffer : buffer.slice(0, got);
  });
}

/** {@link readFileInto} of `read-file.ts`, blocking: the file size, without reading when the ranges do not fit. */
export function readFileIntoSync(
  path: string,
  ranges: readonly ReadIntoRange[],
  end: number,
  flags = READ_FLAGS,
): number | undefined {
  return withReadableFileSync(path, flags, (fd, size) => {
    if (end > size) return size;
    for (const { position, buffers } of readvGroups(ranges)) {
      // A file shortened by someone else meanwhile reads short: report its new size.
      if (!readvFullySync(fd, buffers, position)) return fs.fstatSync(fd).size;
    }
    return size;
  });
}
