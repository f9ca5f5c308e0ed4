/**
 * Atomic replacement of a file: write a temporary sibling, optionally fsync it, then
 * rename it over the target. rename(2) within one directory swaps the directory entry in
 * one step, so a reader opens either the old file or the new one, never a partial write.
 */
import nodePath from "node:path";
import { throwIfAborted } from "@zarr/spec";
import {
  CREATE_EXCLUSIVE_FLAGS,
  close,
  closeQuietly,
  errorCode,
  fsync,
  open,
  READ_FLAGS,
  rename,
  unlink,
  writeFully,
} from "./fs-calls.js";
import { tempNameFor } from "./temp-files.js";

/** Options of {@link writeFileAtomic}. */
export interface AtomicWriteOptions {
  /** fsync the file before the rename and the directory after it. */
  durable: boolean;
  signal?: AbortSignal;
}

/**
 * Writes `value` to `dir/name` atomically. On any failure (including abort before the
 * rename) the temporary file is removed and the previous value, if any, is untouched.
 */
export async function writeFileAtomic(
  dir: string,
  name: string,
  value: Uint8Array,
  options: AtomicWriteOptions,
): Promise<void> {
  const { durable, signal } = options;
  const target = nodePath.join(dir, name);
  const temp = nodePath.join(dir, tempNameFor(name));
  let fd: number | undefined = await open(temp, CREATE_EXCLUSIVE_FLAGS);
  let renamed = false;
  try {
    await writeFully(fd, value, signal);
    throwIfAborted(signal);
    if (durable) await fsync(fd);
    const closing = fd;
    fd = undefined;
    // Not quiet: network file systems may report deferred write errors only at close.
    await close(closing);
    throwIfAborted(signal);
    await renameReplacing(temp, target);
    renamed = true;
  } finally {
    if (!renamed) {
      if (fd !== undefined) await closeQuietly(fd);
      await unlink(temp).catch(() => undefined);
    }
  }
  if (durable) await syncDirectory(dir);
}

/**
 * rename(2), retried briefly on Windows where a virus scanner or indexer holding the
 * target open makes replacing it fail transiently with EPERM/EACCES/EBUSY.
 */
async function renameReplacing(from: string, to: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await rename(from, to);
      return;
    } catch (error) {
      const code = errorCode(error);
      const transient = code === "EPERM" || code === "EACCES" || code === "EBUSY";
      if (process.platform !== "win32" || !transient || attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10 * 2 ** attempt));
    }
  }
}

/** Errors meaning "this platform cannot sync a directory" rather than a failed sync. */
const DIRECTORY_SYNC_UNSUPPORTED = new Set(["EISDIR", "EPERM", "EACCES", "EINVAL", "EBADF", "ENOTSUP"]);

/**
 * fsyncs a directory so a completed rename survives a crash. Platforms that cannot open
 * or sync a directory (Windows) report one of a few errors, which are ignored: there the
 * rename is as durable as the platform allows. Other errors (EIO) are real and rethrown.
 */
async function syncDirectory(dir: string): Promise<void> {
  let fd: number;
  try {
    fd = await open(dir, READ_FLAGS);
  } catch (error) {
    if (DIRECTORY_SYNC_UNSUPPORTED.has(errorCode(error) ?? "")) return;
    throw error;
  }
  try {
    await fsync(fd);
  } catch (error) {
    if (!DIRECTORY_SYNC_UNSUPPORTED.has(errorCode(error) ?? "")) throw error;
  } finally {
    await closeQuietly(fd);
  }
}
