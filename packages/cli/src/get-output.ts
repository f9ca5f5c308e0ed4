/**
 * Where and how `zarr get` writes what it read: the format (given, or inferred from the
 * output file's name) and the writing itself: JSON in pieces, .npy as its header and then
 * the result's own memory.
 */
import { open, rm, stat } from "node:fs/promises";
import { extname } from "node:path";
import type { ArrayData } from "@zarr/core";
import { ZarrError } from "@zarr/spec";
import type { CliIO } from "./cli-io.js";
import { writeCanonicalJson } from "./json-stream.js";
import { encodeNpyParts } from "./npy.js";
import { UsageError } from "./usage.js";

/** An output format of `zarr get`. */
export type GetFormat = "json" | "npy";

/**
 * The format of `zarr get`: `--format` when given (`json` or `npy`, else a usage error);
 * otherwise from the `-o` file's extension, `.json` → json and anything else (`.npy`,
 * another extension, none, `/dev/null`) → npy; standard output → json.
 *
 * @example
 * ```ts
 * getFormat(undefined, "t.json");    // "json"
 * getFormat(undefined, "/dev/null"); // "npy"
 * getFormat(undefined, undefined);   // "json" (standard output)
 * ```
 */
export function getFormat(format: string | undefined, output: string | undefined): GetFormat {
  if (format !== undefined) {
    if (format !== "json" && format !== "npy") {
      throw new UsageError(`unknown format ${JSON.stringify(format)} (expected json or npy)`, "get");
    }
    return format;
  }
  if (output === undefined) return "json";
  return extname(output).toLowerCase() === ".json" ? "json" : "npy";
}

function cannotWrite(file: string, error: unknown): ZarrError {
  return new ZarrError("INVALID_ARGUMENT", `Cannot write "${file}": ${(error as Error).message}`, { cause: error });
}

/**
 * Writes `result` in `format` to the file `output`, or to `io` (standard output) when it
 * is undefined. JSON goes out in pieces, so arrays whose text exceeds what one string can
 * hold are written too.
 */
export async function writeGetOutput(result: ArrayData, format: GetFormat, output: string | undefined, io: CliIO): Promise<void> {
  // Encode before opening, so a data type .npy cannot hold leaves no empty file behind.
  const npy = format === "npy" ? encodeNpyParts(result) : undefined;
  await writeOutput(output, io, async (write) => {
    if (npy === undefined) return writeCanonicalJson(result, write);
    await write(npy.header);
    await write(npy.body);
  });
}

/**
 * Runs `emit`, whose pieces go to the file `output` (created or truncated) or to `io`
 * (standard output) when it is undefined. A file that `emit` fails to finish is removed,
 * so a failed `zarr get` leaves no truncated output behind.
 *
 * @example
 * ```ts
 * await writeOutput("t.npy", io, async (write) => { await write(header); await write(body); });
 * ```
 */
export async function writeOutput(
  output: string | undefined,
  io: CliIO,
  emit: (write: (piece: string | Uint8Array) => Promise<void>) => Promise<void>,
): Promise<void> {
  if (output === undefined) return emit((piece) => io.write(piece));
  let file: Awaited<ReturnType<typeof open>>;
  try {
    file = await open(output, "w");
  } catch (error) {
    throw cannotWrite(output, error);
  }
  let finished = false;
  try {
    await emit(async (piece) => {
      try {
        await (typeof piece === "string" ? file.write(piece) : file.write(piece));
      } catch (error) {
        throw cannotWrite(output, error);
      }
    });
    finished = true;
  } finally {
    await file.close();
    // Not a device or pipe given as the output (/dev/null, /dev/stdout): only files are removed.
    if (!finished && (await isRegularFile(output))) await rm(output, { force: true });
  }
}

async function isRegularFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
