/**
 * @zarr/store-zip/node: Node-only helpers. `writeZipFile` streams an archive to a file,
 * holding one value at a time instead of the whole archive.
 */
import { randomBytes } from "node:crypto";
import { open, rename, unlink } from "node:fs/promises";
import { asZarrError, type ListableStore, type ReadableStore, ZarrError } from "@zarr/spec";
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
