/** `zarr get STORE PATH [--select SEL] [--format json|npy] [-o FILE] [--workers N]`. */
import { writeFile } from "node:fs/promises";
import { get, normalizePath, openArray, parseSelection, toCanonicalJson } from "@zarr/core";
import { ZarrError } from "@zarr/spec";
import type { CliIO } from "../cli-io.js";
import { compactJson } from "../json-text.js";
import { encodeNpy } from "../npy.js";
import { cliRegistry } from "../registry.js";
import { openStoreArg } from "../store-arg.js";
import { expectPositionals, parseCommandArgs, UsageError, USAGE } from "../usage.js";
import { withWorkerPool, workerCount } from "../workers.js";

/** Runs `zarr get`. */
export async function getCommand(args: string[], io: CliIO): Promise<void> {
  const { values, positionals } = parseCommandArgs("get", args, {
    select: { type: "string" },
    format: { type: "string" },
    output: { type: "string", short: "o" },
    workers: { type: "string", short: "j" },
  });
  if (values.help) {
    await io.write(`${USAGE.get}\n`);
    return;
  }
  expectPositionals("get", positionals, 1, 2);
  const format = values.format ?? "json";
  if (format !== "json" && format !== "npy") {
    throw new UsageError(`unknown format ${JSON.stringify(format)} (expected json or npy)`, "get");
  }
  const poolSize = workerCount("get", values.workers);
  const path = normalizePath(positionals[1] ?? "");
  const selection = values.select === undefined ? undefined : parseSelection(values.select);
  const store = await openStoreArg(positionals[0], { writable: false });
  const array = await openArray(store, path, { registry: cliRegistry() });
  const result = await withWorkerPool(poolSize, (workers) => get(array, selection, { workers }), io.error);
  const out: string | Uint8Array =
    format === "json" ? `${compactJson(toCanonicalJson(result))}\n` : encodeNpy(result);
  if (values.output === undefined) {
    await io.write(out);
    return;
  }
  try {
    await writeFile(values.output, out);
  } catch (error) {
    throw new ZarrError("INVALID_ARGUMENT", `Cannot write "${values.output}": ${(error as Error).message}`, {
      cause: error,
    });
  }
}
