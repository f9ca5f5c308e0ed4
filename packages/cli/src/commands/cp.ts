/** `zarr cp SRC DST [--resume] [--concurrency N] [--part i/n | --parts n | --init | --finalize]`. */
import { fileURLToPath } from "node:url";
import { storeScheme } from "@zarr/core";
import { isListable, type Store, ZarrError } from "@zarr/spec";
import { CountingStore, copy, copyJob } from "@zarr/store-utils";
import { writeZipFile } from "@zarr/store-zip/node";
import type { CliIO } from "../cli-io.js";
import { interruptible } from "../interrupt.js";
import { removeStaleTempFiles } from "../interrupted-put.js";
import { PART_OPTIONS, partMode, runPartMode } from "../parts-option.js";
import { terminalProgress } from "../progress.js";
import { readLimits } from "../read-limits.js";
import { openStoreArg } from "../store-arg.js";
import { expectPositionals, integerOption, parseCommandArgs, USAGE, UsageError } from "../usage.js";

const MiB = 1024 * 1024;
const MAX_CONCURRENCY = 1024;

/** The local file a DST names when it is a zip archive to write (a path or `file:` URL ending in `.zip`), else undefined. */
function zipTarget(dst: string): string | undefined {
  if (storeScheme(dst) !== "zip" || /^zip[+:]/i.test(dst)) return undefined;
  if (/^file:/i.test(dst)) {
    try {
      return fileURLToPath(dst);
    } catch (error) {
      throw new ZarrError("INVALID_ARGUMENT", `Invalid file URL "${dst}"`, { cause: error });
    }
  }
  return dst;
}



/** Runs `zarr cp`. */
export async function cpCommand(args: string[], io: CliIO): Promise<void> {
  const { values, positionals } = parseCommandArgs("cp", args, {
    resume: { type: "boolean" },
    concurrency: { type: "string", short: "j" },
    ...PART_OPTIONS,
  });
  if (values.help) {
    await io.write(`${USAGE.cp}\n`);
    return;
  }
  const limits = readLimits("cp", values);
  expectPositionals("cp", positionals, 2, 2);
  const [srcArg, dstArg] = positionals;
  const concurrency = integerOption("cp", "--concurrency", values.concurrency, 1, MAX_CONCURRENCY, 8);
  const zipPath = zipTarget(dstArg);
  const parts = partMode("cp", values);
  if (parts !== undefined && zipPath !== undefined) throw new UsageError("A zip archive is written whole: it cannot be written in parts", "cp");
  if (zipPath !== undefined && values.resume) {
    throw new UsageError("--resume does not apply when writing a zip archive (it is always written whole)", "cp");
  }
  const source: Store = await openStoreArg(srcArg, { writable: false, headers: values.header, limits });
  if (!isListable(source)) {
    throw new ZarrError(
      "UNSUPPORTED",
      `Cannot copy from "${srcArg}": the store cannot list its keys (plain HTTP has no listing; copy from a directory, S3 or a zip archive)`,
    );
  }
  // Ctrl-C or SIGTERM aborts the copy (the writes in flight finish, so no object is left
  // half written); a second one exits at once.
  await interruptible(async (signal) => {
    const progress = terminalProgress("keys");
    try {
      if (zipPath !== undefined) {
        // Counting the bytes read shows MiB moved; entries are stored (uncompressed).
        const counted = new CountingStore(source);
        const summary = await writeZipFile(counted as typeof source, zipPath, {
          signal,
          onProgress: ({ done, total }) => progress?.update(done, total, counted.bytesRead),
        });
        progress?.end();
        await io.write(`zipped ${summary.entries} keys (${(counted.bytesRead / MiB).toFixed(1)} MiB) into ${dstArg}\n`);
        return;
      }
      const destination = await openStoreArg(dstArg, { writable: true, headers: values.header, limits });
      // Temporary files left by writers killed earlier (an interrupted cp among them).
      await removeStaleTempFiles(destination, "");
      if (parts !== undefined) {
        // Every process of the job names it the same way: by the arguments as given.
        const job = copyJob(source, destination, { name: `${srcArg} -> ${dstArg}` });
        await runPartMode(job, parts, { resume: values.resume === true, concurrency, signal }, io);
        return;
      }
      const result = await copy(source, destination, {
        concurrency,
        resume: values.resume === true,
        signal,
        onProgress: ({ done, total, bytes }) => progress?.update(done, total, bytes),
      });
      progress?.end();
      const skipped = result.skipped > 0 ? `, ${result.skipped} already there` : "";
      await io.write(`copied ${result.copied} of ${result.total} keys (${(result.bytes / MiB).toFixed(1)} MiB)${skipped}\n`);
    } catch (error) {
      progress?.end();
      if (signal.aborted && !(error instanceof ZarrError && error.code === "ABORTED")) {
        throw new ZarrError("ABORTED", "Interrupted: the copy stopped (keys in the destination are complete or absent)", { cause: error });
      }
      if (error instanceof ZarrError && error.code === "ABORTED") {
        throw new ZarrError("ABORTED", `Interrupted: ${error.message}; keys in the destination are complete or absent`, { cause: error });
      }
      throw error;
    }
  }, ["SIGINT", "SIGTERM"]);
}
