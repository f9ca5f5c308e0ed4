/**
 * An archive file on a local disk for a writable `ZipStore` (Node only): read and
 * written in place by position; a compaction writes a temporary file next to it and
 * renames it over the archive.
 */
import { randomBytes } from "node:crypto";
import { type FileHandle, open, rename, unlink } from "node:fs/promises";
import type { ArchiveFile } from "./archive-file.js";

/** A local file opened for reading and writing. */
export class FileArchiveFile implements ArchiveFile {
  readonly name: string;
  #handle: FileHandle;
  #size: number;

  private constructor(path: string, handle: FileHandle, size: number) {
    this.name = path;
    this.#handle = handle;
    this.#size = size;
  }

  /**
   * Opens `path`: `"w"` creates or empties it, `"a"` opens it as it is (creating it when
   * missing), `"x"` creates it and fails if it exists.
   */
  static async open(path: string, mode: "w" | "a" | "x"): Promise<FileArchiveFile> {
    let handle: FileHandle;
    if (mode === "a") {
      try {
        handle = await open(path, "r+");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
        handle = await open(path, "wx+");
      }
    } else {
      handle = await open(path, mode === "w" ? "w+" : "wx+");
    }
    try {
      const { size } = await handle.stat();
      return new FileArchiveFile(path, handle, size);
    } catch (error) {
      await handle.close().catch(() => {});
      throw error;
    }
  }

  get size(): number {
    return this.#size;
  }

  async read(start: number, end: number): Promise<Uint8Array> {
    const stop = Math.min(end, this.#size);
    if (stop <= start) return new Uint8Array(0);
    const out = new Uint8Array(stop - start);
    let done = 0;
    while (done < out.length) {
      const { bytesRead } = await this.#handle.read(out, done, out.length - done, start + done);
      if (bytesRead === 0) return out.subarray(0, done); // the file shrank under us: a short read
      done += bytesRead;
    }
    return out;
  }

  async write(at: number, bytes: Uint8Array): Promise<void> {
    let done = 0;
    while (done < bytes.length) {
      const { bytesWritten } = await this.#handle.write(bytes, done, bytes.length - done, at + done);
      done += bytesWritten;
    }
    if (at + bytes.length > this.#size) this.#size = at + bytes.length;
  }

  async truncate(size: number): Promise<void> {
    await this.#handle.truncate(size);
    this.#size = size;
  }

  async commit(): Promise<void> {
    await this.#handle.sync();
  }

  async rewrite(fill: (scratch: ArchiveFile) => Promise<void>): Promise<void> {
    const temp = `${this.name}.${randomBytes(6).toString("hex")}.zip-tmp`;
    const scratch = await FileArchiveFile.open(temp, "x");
    try {
      await fill(scratch);
      await scratch.commit();
      await rename(temp, this.name);
    } catch (error) {
      await scratch.close().catch(() => {});
      await unlink(temp).catch(() => {});
      throw error;
    }
    const old = this.#handle;
    this.#handle = scratch.#handle;
    this.#size = scratch.#size;
    await old.close().catch(() => {});
  }

  async close(): Promise<void> {
    await this.#handle.close();
  }
}
