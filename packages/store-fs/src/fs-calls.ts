/**
 * Promise wrappers over Node's callback `fs` API. The callback API skips the
 * `FileHandle` machinery of `fs/promises`, which measurably slows the hot read path
 * (see README, "Performance"). Every call goes through the `fs` module object (not
 * destructured imports) so tests can observe calls such as `fsync`.
 */
import fs from "node:fs";

/** An error from Node's fs layer, with its `code` (`ENOENT`, ...). */
export type FsError = NodeJS.ErrnoException;

/** The `code` of an fs error, or `undefined` for anything else. */
export function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error && typeof error.code === "string"
    ? error.code
    : undefined;
}

/** True for errors meaning "no such entry": the path or one of its parents is missing or not a directory. */
export function isMissing(error: unknown): boolean {
  const code = errorCode(error);
  return code === "ENOENT" || code === "ENOTDIR";
}

/** "Not a regular file here": missing entries, and directories opened or read by mistake. */
export function isNotAFile(error: unknown): boolean {
  return isMissing(error) || errorCode(error) === "EISDIR";
}

/**
 * Read-only, and non-blocking so that opening a FIFO found in the store returns at once
 * instead of parking a thread-pool thread forever (it is then rejected as not a regular
 * file). `O_NONBLOCK` does not exist on Windows, where FIFOs cannot appear in a directory.
 */
export const READ_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);

/** Exclusive create for temporary files: never reuse or follow an existing entry. */
export const CREATE_EXCLUSIVE_FLAGS = "wx";

/** Largest byte count handed to one `read`/`write` call (the syscalls take an int). */
const MAX_IO_CHUNK = 0x7fff_f000;

export function open(path: string, flags: number | string, mode = 0o666): Promise<number> {
  return new Promise((resolve, reject) => {
    fs.open(path, flags, mode, (error, fd) => (error ? reject(error) : resolve(fd)));
  });
}

export function fstat(fd: number): Promise<fs.Stats> {
  return new Promise((resolve, reject) => {
    fs.fstat(fd, (error, stats) => (error ? reject(error) : resolve(stats)));
  });
}

export function stat(path: string): Promise<fs.Stats> {
  return new Promise((resolve, reject) => {
    fs.stat(path, (error, stats) => (error ? reject(error) : resolve(stats)));
  });
}

export function lstat(path: string): Promise<fs.Stats> {
  return new Promise((resolve, reject) => {
    fs.lstat(path, (error, stats) => (error ? reject(error) : resolve(stats)));
  });
}

export function close(fd: number): Promise<void> {
  return new Promise((resolve, reject) => {
    fs.close(fd, (error) => (error ? reject(error) : resolve()));
  });
}

/** Closes a descriptor on an error path, where a second error would only hide the first. */
export function closeQuietly(fd: number): Promise<void> {
  return new Promise((resolve) => fs.close(fd, () => resolve()));
}

function readOnce(fd: number, into: Uint8Array, offset: number, length: number, position: number): Promise<number> {
  return new Promise((resolve, reject) => {
    fs.read(fd, into, offset, length, position, (error, bytesRead) => (error ? reject(error) : resolve(bytesRead)));
  });
}

/**
 * Positional read of up to `into.length` bytes starting at file `position`. Loops over
 * short reads and stops at end of file; resolves the number of bytes read.
 */
export async function readFully(fd: number, into: Uint8Array, position: number): Promise<number> {
  let done = 0;
  while (done < into.length) {
    const n = await readOnce(fd, into, done, Math.min(into.length - done, MAX_IO_CHUNK), position + done);
    if (n === 0) break;
    done += n;
  }
  return done;
}

/** {@link readFully} with blocking calls. */
export function readFullySync(fd: number, into: Uint8Array, position: number): number {
  let done = 0;
  while (done < into.length) {
    const n = fs.readSync(fd, into, done, Math.min(into.length - done, MAX_IO_CHUNK), position + done);
    if (n === 0) break;
    done += n;
  }
  return done;
}

function writeOnce(fd: number, from: Uint8Array, offset: number, length: number, position: number): Promise<number> {
  return new Promise((resolve, reject) => {
    fs.write(fd, from, offset, length, position, (error, written) => (error ? reject(error) : resolve(written)));
  });
}

/** Writes all of `from` at file position 0, looping over short writes. */
export async function writeFully(fd: number, from: Uint8Array, signal?: AbortSignal): Promise<void> {
  let done = 0;
  while (done < from.length) {
    if (signal?.aborted) return;
    done += await writeOnce(fd, from, done, Math.min(from.length - done, MAX_IO_CHUNK), done);
  }
}

export function fsync(fd: number): Promise<void> {
  return new Promise((resolve, reject) => {
    fs.fsync(fd, (error) => (error ? reject(error) : resolve()));
  });
}

export function rename(from: string, to: string): Promise<void> {
  return new Promise((resolve, reject) => {
    fs.rename(from, to, (error) => (error ? reject(error) : resolve()));
  });
}

export function unlink(path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    fs.unlink(path, (error) => (error ? reject(error) : resolve()));
  });
}

export function mkdir(path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    fs.mkdir(path, (error) => (error ? reject(error) : resolve()));
  });
}

export function mkdirRecursive(path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    fs.mkdir(path, { recursive: true }, (error) => (error ? reject(error) : resolve()));
  });
}

/** The canonical absolute path (symlinks resolved) through the native `realpath`. */
export function realpath(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    fs.realpath.native(path, (error, resolved) => (error ? reject(error) : resolve(resolved)));
  });
}

export function readdir(path: string): Promise<fs.Dirent[]> {
  return new Promise((resolve, reject) => {
    fs.readdir(path, { withFileTypes: true }, (error, entries) => (error ? reject(error) : resolve(entries)));
  });
}

export function opendir(path: string): Promise<fs.Dir> {
  return new Promise((resolve, reject) => {
    fs.opendir(path, (error, dir) => (error ? reject(error) : resolve(dir)));
  });
}

/** `rm -rf` without following symbolic links (Node's rm removes a link, not its target). */
export function removeTree(path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    fs.rm(path, { recursive: true, force: true, maxRetries: 3 }, (error) => (error ? reject(error) : resolve()));
  });
}

/**
 * A fresh `Uint8Array` of exactly `size` bytes on its own `ArrayBuffer` (byteOffset 0),
 * without zero-filling (every byte is about to be overwritten) and never from Node's
 * shared Buffer pool, so callers can build Float64Array views on `.buffer` directly.
 */
export function allocExact(size: number): Uint8Array {
  return new Uint8Array(Buffer.allocUnsafeSlow(size).buffer, 0, size);
}

/** `readv` at `position`, resolving the number of bytes read. */
function readv(fd: number, buffers: Uint8Array[], position: number): Promise<number> {
  return new Promise((resolve, reject) => {
    fs.readv(fd, buffers, position, (error, bytesRead) => (error ? reject(error) : resolve(bytesRead)));
  });
}

/**
 * Fills `buffers` in order from `position` with as few `readv` calls as the kernel
 * allows (it may return short counts). Resolves false at end of file before they are full.
 */
export async function readvFully(fd: number, buffers: Uint8Array[], position: number): Promise<boolean> {
  let pending = buffers;
  let at = position;
  while (pending.length > 0) {
    const n = await readv(fd, pending, at);
    if (n === 0) return false;
    at += n;
    pending = unfilled(pending, n);
  }
  return true;
}

/** {@link readvFully} with blocking calls. */
export function readvFullySync(fd: number, buffers: Uint8Array[], position: number): boolean {
  let pending = buffers;
  let at = position;
  while (pending.length > 0) {
    const n = fs.readvSync(fd, pending, at);
    if (n === 0) return false;
    at += n;
    pending = unfilled(pending, n);
  }
  return true;
}

/** What a read of `n` bytes into `buffers` (in order) left to fill. */
function unfilled(buffers: Uint8Array[], n: number): Uint8Array[] {
  let skip = n;
  let k = 0;
  while (k < buffers.length && skip >= buffers[k].length) skip -= buffers[k++].length;
  const rest = buffers.slice(k);
  if (skip > 0) rest[0] = rest[0].subarray(skip);
  return rest;
}
