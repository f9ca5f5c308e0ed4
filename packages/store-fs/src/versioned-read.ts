/**
 * Versioned reads of files (`ReadableStore.getVersioned`): the bytes of a range together
 * with the version of the file they came from.
 *
 * A version is the file's device, inode, size, modification and change times (`fstat`
 * with nanoseconds). The store replaces values by renaming a new file over the old one,
 * which gives a new inode: a descriptor opened before the rename keeps reading the old
 * file, so the bytes read through it all belong to the version its `fstat` names. The
 * descriptor is checked again after the read, so a file changed in place while it was
 * read is reported too (in-place writers within one timestamp tick of the clock, with
 * the size unchanged, cannot be told apart: the store itself never writes in place).
 */
import fs from "node:fs";
import { type ByteRange, resolveByteRange, storeChanged, throwIfAborted, type VersionedBytes } from "@zarr/spec";
import { allocExact, closeQuietly, isNotAFile, open, READ_FLAGS, readFully } from "./fs-calls.js";

/**
 * `fstat` of an open descriptor, with nanosecond times. Synchronous on purpose: the inode
 * is in memory once the file is open, so the call never waits for the disk, and a round
 * trip through libuv's thread pool would cost 10-15 µs per read instead of about 1.
 */
function fstatExact(fd: number): fs.BigIntStats {
  return fs.fstatSync(fd, { bigint: true });
}

/** The version token of a file: `dev:ino:size:mtimeNs:ctimeNs`. */
export function fileVersion(stats: fs.BigIntStats): string {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
}

/**
 * Reads `range` of the file at `path` (the whole file when `undefined`; clamped like an
 * HTTP range) with the file's version. With `ifVersion`, a file of another version rejects
 * with `STORE_CHANGED` before any byte is read; a file that changes during the read
 * rejects with `STORE_CHANGED` too. Resolves `undefined` when there is no regular file.
 * The bytes land in the start of `spare` when they fit (a view of it is resolved).
 */
export async function readFileVersioned(
  path: string,
  key: string,
  range: ByteRange | undefined,
  ifVersion: string | undefined,
  signal?: AbortSignal,
  spare?: Uint8Array,
): Promise<VersionedBytes | undefined> {
  // Validate before touching the file: bad numbers are the caller's error, not a missing key.
  if (range !== undefined) resolveByteRange(range, Number.MAX_SAFE_INTEGER);
  let fd: number;
  try {
    fd = await open(path, READ_FLAGS);
  } catch (error) {
    if (isNotAFile(error)) return undefined;
    throw error;
  }
  try {
    const before = fstatExact(fd);
    if (!before.isFile()) return undefined;
    const version = fileVersion(before);
    if (ifVersion !== undefined && ifVersion !== version) throw storeChanged(key, ifVersion, version);
    throwIfAborted(signal);
    const size = Number(before.size);
    const [start, end] = range === undefined ? [0, size] : resolveByteRange(range, size);
    // Into the caller's spare when it fits: no fresh pages to fault in for every range.
    const buffer = spare !== undefined && spare.length >= end - start ? spare.subarray(0, end - start) : allocExact(end - start);
    const got = end === start ? 0 : await readFully(fd, buffer, start);
    const after = fileVersion(fstatExact(fd));
    if (after !== version || got !== buffer.length) throw storeChanged(key, version, after);
    return { bytes: buffer, version };
  } catch (error) {
    if (isNotAFile(error)) return undefined;
    throw error;
  } finally {
    await closeQuietly(fd);
  }
}
