/**
 * The file-system calls a listing makes, in two interchangeable forms: through libuv's
 * thread pool (the default) and blocking (stores made with `blockingReads`). Listings are
 * written once against {@link DirCalls}; the blocking form only wraps each synchronous call
 * in a settled promise, so a directory walk costs its system calls and a few microtasks
 * instead of a thread-pool hand-off and an event-loop turn per call (a `zarr tree` of 5,000
 * v2 arrays makes about 20,000 of them).
 */
import type { Dirent, Stats } from "node:fs";
import fs from "node:fs";
import { opendir, readdir, realpath, stat } from "./fs-calls.js";

/** The entries of an open directory, read as they are iterated; breaking out closes it. */
export type DirEntries = AsyncIterable<Dirent>;

/** What listings ask of the file system. Each rejects with the fs error for the caller to sort out. */
export interface DirCalls {
  realpath(path: string): Promise<string>;
  stat(path: string): Promise<Stats>;
  /** Every entry of a directory at once. */
  readdir(path: string): Promise<Dirent[]>;
  /** A directory opened for reading entry by entry (stopping early reads no further). */
  opendir(path: string): Promise<DirEntries>;
}

/** Through libuv's thread pool: never holds the calling thread. */
export const threadPoolDirCalls: DirCalls = { realpath, stat, readdir, opendir };

/** Reads an open directory with blocking calls, closing it when the iteration ends. */
async function* blockingEntries(dir: fs.Dir): AsyncGenerator<Dirent> {
  try {
    for (let entry = dir.readSync(); entry !== null; entry = dir.readSync()) yield entry;
  } finally {
    dir.closeSync();
  }
}

/** Blocking: each call holds the calling thread for its system calls (batch processes). */
export const blockingDirCalls: DirCalls = {
  realpath: async (path) => fs.realpathSync.native(path),
  stat: async (path) => fs.statSync(path),
  readdir: async (path) => fs.readdirSync(path, { withFileTypes: true }),
  opendir: async (path) => blockingEntries(fs.opendirSync(path)),
};
