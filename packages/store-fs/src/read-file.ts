/**
 * Reading stored values: whole files (the hot path of chunk reads), byte ranges through
 * positional reads, and sizes. Each resolves `undefined` when there is no regular file at
 * the path; other failures reject with the fs error for the caller to wrap.
 */
import { type ByteRange, type ReadIntoRange, resolveByteRange, throwIfAborted } from "@zarr/spec";
import { allocExact, closeQuietly, fstat, isMissing, isNotAFile, lstat, open, READ_FLAGS, readFully, readvFully, stat } from "./fs-calls.js";

/**
 * Ranges with an explicit length up to this size are read without an `fstat` first (the
 * read itself reports a short count at end of file). Longer ones are clamped to the file
 * size before allocating, so an absurd length never allocates gigabytes.
 */
const UNCHECKED_RANGE_LIMIT = 16 * 1024 * 1024;

/**
 * Opens `path` with `flags` (read-only), runs `body` on the descriptor and closes it. Resolves
 * `undefined` when there is no regular file at `path`.
 */
async function withReadableFile<T>(
  path: string,
  flags: number,
  body: (fd: number) => Promise<T | undefined>,
): Promise<T | undefined> {
  let fd: number;
  try {
    fd = await open(path, flags);
  } catch (error) {
    if (isNotAFile(error)) return undefined;
    throw error;
  }
  try {
    return await body(fd);
  } catch (error) {
    if (isNotAFile(error)) return undefined;
    throw error;
  } finally {
    // A read-only descriptor has nothing to flush: a close error cannot lose data.
    await closeQuietly(fd);
  }
}

/** Shrinks a buffer after a short read, copying so the result again owns its ArrayBuffer exactly. */
function trimmed(buffer: Uint8Array, length: number): Uint8Array {
  return length === buffer.length ? buffer : buffer.slice(0, length);
}

/**
 * Reads a whole file with one `open`, one `fstat` and (normally) one `read` into an
 * exact-size buffer that owns its ArrayBuffer (byteOffset 0). A directory, FIFO or other
 * non-regular file counts as missing.
 */
export function readWholeFile(path: string, signal?: AbortSignal, flags = READ_FLAGS): Promise<Uint8Array | undefined> {
  return withReadableFile(path, flags, async (fd) => {
    const stats = await fstat(fd);
    if (!stats.isFile()) return undefined;
    throwIfAborted(signal);
    const buffer = allocExact(stats.size);
    // A file truncated by someone else after fstat gives a short read: keep what exists.
    return trimmed(buffer, await readFully(fd, buffer, 0));
  });
}

/**
 * Reads a whole file into the start of `spare` when it fits (a view of it), else into an
 * exact-size buffer of its own, as {@link readWholeFile} does.
 */
export function readWholeFileInto(
  path: string,
  spare: Uint8Array,
  signal?: AbortSignal,
  flags = READ_FLAGS,
): Promise<Uint8Array | undefined> {
  return withReadableFile(path, flags, async (fd) => {
    const stats = await fstat(fd);
    if (!stats.isFile()) return undefined;
    throwIfAborted(signal);
    const size = stats.size;
    const buffer = size <= spare.length ? spare.subarray(0, size) : allocExact(size);
    const got = await readFully(fd, buffer, 0);
    // A file truncated by someone else after fstat gives a short read: keep what exists.
    return got === size ? buffer : buffer.subarray(0, got);
  });
}

/**
 * Reads only the bytes of `range` with a positional read, clamped to the file like an
 * HTTP range request (past the end → empty). Suffix ranges, open-ended ranges, empty
 * ranges and very long ranges take the size (and regular-file check) from `fstat` first.
 */
export function readFileRange(
  path: string,
  range: ByteRange,
  signal?: AbortSignal,
  flags = READ_FLAGS,
): Promise<Uint8Array | undefined> {
  // Validate before touching the file: bad numbers are the caller's error, not a missing key.
  resolveByteRange(range, Number.MAX_SAFE_INTEGER);
  return withReadableFile(path, flags, async (fd) => {
    let start: number;
    let length: number;
    if ("offset" in range && range.length !== undefined && range.length > 0 && range.length <= UNCHECKED_RANGE_LIMIT) {
      start = range.offset;
      length = range.length;
    } else {
      const stats = await fstat(fd);
      if (!stats.isFile()) return undefined;
      const [from, to] = resolveByteRange(range, stats.size);
      start = from;
      length = to - from;
    }
    throwIfAborted(signal);
    const buffer = allocExact(length);
    return trimmed(buffer, length === 0 ? 0 : await readFully(fd, buffer, start));
  });
}

/**
 * Size in bytes of the regular file at `path`, or `undefined`. Symbolic links are
 * followed; with `followLinks: false` a link is reported as `"link"` for the caller to
 * resolve and check.
 */
export async function fileSize(path: string, followLinks = true): Promise<number | "link" | undefined> {
  try {
    const stats = followLinks ? await stat(path) : await lstat(path);
    if (stats.isSymbolicLink()) return "link";
    return stats.isFile() ? stats.size : undefined;
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/** Most buffers one `readv` takes (Linux's IOV_MAX). */
const MAX_IOVECS = 1024;

/**
 * The `readv` calls of a scatter read: runs of ranges consecutive in the file (at most
 * {@link MAX_IOVECS} each), as the file position and the buffers to fill from it.
 */
export function* readvGroups(ranges: readonly ReadIntoRange[]): Generator<{ position: number; buffers: Uint8Array[] }> {
  let i = 0;
  while (i < ranges.length) {
    const start = ranges[i].offset;
    let position = start;
    const buffers: Uint8Array[] = [];
    while (i < ranges.length && ranges[i].offset === position && buffers.length < MAX_IOVECS) {
      buffers.push(ranges[i].target);
      position += ranges[i].target.length;
      i++;
    }
    yield { position: start, buffers };
  }
}

/**
 * Scatter read: fills each target with the file's bytes at its offset, batching
 * consecutive ranges into `readv` calls so the kernel copies straight into the caller's
 * memory. `end` is where the last range ends (`checkReadIntoRanges`). Resolves the file
 * size (without reading when the ranges do not fit in it), or
 * `undefined` when there is no regular file.
 */
export function readFileInto(
  path: string,
  ranges: readonly ReadIntoRange[],
  end: number,
  signal?: AbortSignal,
  flags = READ_FLAGS,
): Promise<number | undefined> {
  return withReadableFile(path, flags, async (fd) => {
    const stats = await fstat(fd);
    if (!stats.isFile()) return undefined;
    if (end > stats.size) return stats.size;
    for (const { position, buffers } of readvGroups(ranges)) {
      throwIfAborted(signal);
      // A file shortened by someone else between fstat and here reads short: report its new size.
      if (!(await readvFully(fd, buffers, position))) return (await fstat(fd)).size;
    }
    return stats.size;
  });
}
