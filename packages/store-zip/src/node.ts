/**
 * @zarr/store-zip/node: Node-only helpers. `writeZipFile` streams an archive to a file,
 * holding one value at a time instead of the whole archive; `openZipFileForWriting`
 * opens a zip file as a writable store, appending to it in place.
 */
import { randomBytes } from "node:crypto";
import { open, rename, unlink } from "node:fs/promises";
import { asZarrError, type ListableStore, type ReadableStore, ZarrError } from "@zarr/spec";
import { FileArchiveFile } from "./file-archive.js";
import { checkMode, readExistingDirectory, type WritableZipOptions, WritableZipStore } from "./writable-zip-store.js";
import { type WriteZipOptions, zipStoreInto } from "./write-zip.js";
import type { ZipSummary } from "./zip-writer.js";
import { ZipWriter } from "./zip-writer.js";

/**
 * Zips every key of `source` into the file at `path`, streaming: each value is read,
 * written and dropped, so memory stays at one value plus the central directory records.
 * The archive is written to a temporary file next to `path` and renamed into place when
 * complete (a reader never sees half an archive; on failure the temporary file is removed).
 *
 * @example
 * ```ts
 * import { writeZipFile } from "@zarr/store-zip/node";
 * await writeZipFile(new FileSystemStore("big.zarr"), "big.zarr.zip", { onProgress: console.log });
 * ```
 */
export async function writeZipFile(
  source: ListableStore & ReadableStore,
  path: string,
  options: WriteZipOptions = {},
): Promise<ZipSummary> {
  if (typeof path !== "string" || path === "") {
    throw new ZarrError("INVALID_ARGUMENT", `writeZipFile needs a file path, got ${JSON.stringify(path)}`);
  }
  const temp = `${path}.${randomBytes(6).toString("hex")}.zip-tmp`;
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(temp, "wx");
    const file = handle;
    const writer = new ZipWriter(
      {
        async write(chunk) {
          let written = 0;
          while (written < chunk.length) {
            const { bytesWritten } = await file.write(chunk, written, chunk.length - written);
            written += bytesWritten;
          }
        },
      },
      options,
    );
    const summary = await zipStoreInto(source, writer, options);
    await handle.close();
    handle = undefined;
    await rename(temp, path);
    return summary;
  } catch (error) {
    await handle?.close().catch(() => {});
    await unlink(temp).catch(() => {});
    throw asZarrError(error, "STORE_FAILED", `Writing zip file "${path}" failed`, path);
  }
}

/**
 * Opens the zip file at `path` as a readable, writable, listable {@link WritableZipStore}
 * that writes the file in place: each `set` appends a local entry to the file, and
 * `close()` (or `flush()`) writes the central directory and syncs the file. Mode `"a"`
 * (default) keeps an existing archive's entries and writes its new directory over the
 * old one (as Python's `zipfile` does in mode `"a"`; a missing file is created, a file
 * that is not a zip archive is refused with `CODEC_FAILED`); mode `"w"` creates or
 * empties the file. `compact()` rewrites the file without stale copies through a
 * temporary file renamed over it.
 *
 * Between the first change and `close()`/`flush()` the file has no central directory,
 * so a reader (or the file left by a crash) fails with `CODEC_FAILED` ("no end of
 * central directory record") rather than reading wrong values.
 *
 * @example
 * ```ts
 * import { openZipFileForWriting } from "@zarr/store-zip/node";
 * const zip = await openZipFileForWriting("data.zarr.zip", { mode: "w" });
 * await createGroup(zip, "", { attributes: { title: "zipped" } });
 * await zip.close();
 * ```
 */
export async function openZipFileForWriting(path: string, options: WritableZipOptions = {}): Promise<WritableZipStore> {
  if (typeof path !== "string" || path === "") {
    throw new ZarrError("INVALID_ARGUMENT", `openZipFileForWriting needs a file path, got ${JSON.stringify(path)}`);
  }
  const mode = checkMode(options.mode);
  let file: FileArchiveFile;
  try {
    file = await FileArchiveFile.open(path, mode);
  } catch (error) {
    throw asZarrError(error, "STORE_FAILED", `Opening zip file "${path}" for writing failed`, path);
  }
  try {
    const directory = await readExistingDirectory(file, options.signal);
    return new WritableZipStore(file, directory, options);
  } catch (error) {
    await file.close().catch(() => {});
    throw error;
  }
}
