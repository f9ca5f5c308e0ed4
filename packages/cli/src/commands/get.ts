/** `zarr get STORE PATH [--select SEL] [--format json|npy] [-o FILE] [--workers N]`. */
import { get, normalizePath, openArray } from "@zarr/core";
import type { CliIO } from "../cli-io.js";
import { getFormat, writeGetOutput, writeOutput } from "../get-output.js";
import { interruptible } from "../interrupt.js";
import { npySlabPlan, writeNpySlabs } from "../npy-slabs.js";
import { arrayLimits, readLimits } from "../read-limits.js";
import { cliRegistry } from "../registry.js";
import { parseSelectOption } from "../select-option.js";
import { openStoreArg } from "../store-arg.js";
import { expectPositionals, parseCommandArgs, USAGE } from "../usage.js";
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
  const limits = readLimits("get", values);
  expectPositionals("get", positionals, 1, 2);
  const format = getFormat(values.format, values.output);
  const poolSize = workerCount("get", values.workers);
  const path = normalizePath(positionals[1] ?? "");
  const selection = values.select === undefined ? undefined : parseSelectOption(values.select);
  const store = await openStoreArg(positionals[0], { writable: false, headers: values.header, limits });
  const array = await openArray(store, path, { registry: cliRegistry(), ...arrayLimits(limits) });
  // A whole large array as .npy goes out slab by slab, in two slabs' memory.
  const slabs = format === "npy" && selection === undefined ? npySlabPlan(array) : undefined;
  // Ctrl-C stops the reads; a file written in part is removed.
  await interruptible(async (signal) => {
    if (slabs !== undefined) {
      await withWorkerPool(poolSize, (workers) => writeOutput(values.output, io, (write) => writeNpySlabs(array, slabs, workers, write, signal)));
      return;
    }
    const result = await withWorkerPool(poolSize, (workers) => get(array, selection, { workers, signal }));
    await writeGetOutput(result, format, values.output, io);
  });
}
