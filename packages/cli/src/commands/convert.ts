/**
 * `zarr convert SRC [DST] [--in-place] [--path P] [--variable-length-strings] [--strict] [--zarr-format 3|3-draft]
 * [--part i/n | --parts n | --init | --finalize] [--resume] [-j N]`.
 */
import { normalizePath, open } from "@zarr/core";
import { type Store, ZarrError } from "@zarr/spec";
import { convert, convertJob, writeDraft } from "@zarr/v2-compat";
import type { CliIO } from "../cli-io.js";
import { interruptible } from "../interrupt.js";
import { removeStaleTempFiles } from "../interrupted-put.js";
import { PART_OPTIONS, partMode, runPartMode } from "../parts-option.js";
import { printable } from "../printable.js";
import { terminalProgress } from "../progress.js";
import { arrayLimits, readLimits } from "../read-limits.js";
import { cliRegistry } from "../registry.js";
import { openStoreArg } from "../store-arg.js";
import { expectPositionals, integerOption, parseCommandArgs, USAGE, UsageError } from "../usage.js";

/** Runs `zarr convert`. */
export async function convertCommand(args: string[], io: CliIO): Promise<void> {
  const { values, positionals } = parseCommandArgs("convert", args, {
    "in-place": { type: "boolean" },
    path: { type: "string" },
    "variable-length-strings": { type: "boolean" },
    strict: { type: "boolean" },
    "zarr-format": { type: "string" },
    resume: { type: "boolean" },
    concurrency: { type: "string", short: "j" },
    ...PART_OPTIONS,
  });
  if (values.help) {
    await io.write(`${USAGE.convert}\n`);
    return;
  }
  const limits = readLimits("convert", values);
  const inPlace = values["in-place"] ?? false;
  const format = values["zarr-format"] ?? "3";
  if (format !== "3" && format !== "3-draft") throw new UsageError(`--zarr-format must be 3 or 3-draft, got ${JSON.stringify(format)}`, "convert");
  const draft = format === "3-draft";
  if (draft && (inPlace || values["variable-length-strings"])) {
    throw new UsageError("--zarr-format 3-draft writes a new store: it takes no --in-place or --variable-length-strings", "convert");
  }
  const parts = partMode("convert", values);
  if (parts !== undefined && (inPlace || draft)) {
    throw new UsageError(
      `${inPlace ? "--in-place" : "--zarr-format 3-draft"} runs in one process: it cannot run in parts (in place, the old documents are replaced once, after every chunk)`,
      "convert",
    );
  }
  if (parts === undefined && (values.resume || values.concurrency !== undefined)) {
    throw new UsageError("--resume and --concurrency apply to a part (--part i/n or --parts n)", "convert");
  }
  const concurrency = integerOption("convert", "--concurrency", values.concurrency, 1, 1024, 8);
  expectPositionals("convert", positionals, inPlace ? 1 : 2, inPlace ? 1 : 2);
  const path = normalizePath(values.path ?? "");
  const registry = cliRegistry();
  const source = await openStoreArg(positionals[0], { writable: inPlace, headers: values.header, limits });
  const node = await open(source, path, { registry, ...arrayLimits(limits) });
  if (draft) {
    if (positionals[1] === positionals[0]) throw new UsageError("SRC and DST are the same", "convert");
    await writeDraftCommand(node, await openStoreArg(positionals[1], { writable: true, headers: values.header, limits }), path, values.strict ?? false, io);
    return;
  }
  if (node.zarrFormat === 3 && node.format === undefined) {
    throw new ZarrError("INVALID_ARGUMENT", `"${positionals[0]}${path ? `/${path}` : ""}" is already Zarr v3`);
  }
  const target = inPlace ? undefined : await openStoreArg(positionals[1], { writable: true, headers: values.header, limits });
  if (!inPlace && positionals[1] === positionals[0]) throw new UsageError("SRC and DST are the same: use --in-place", "convert");
  if (parts !== undefined) {
    const job = convertJob(node, target as Store, {
      path,
      registry,
      variableLengthStrings: values["variable-length-strings"] ?? false,
      strict: values.strict ?? false,
      // Every process of the job names it the same way: by the arguments as given.
      name: `${positionals[0]} -> ${positionals[1]}`,
    });
    await interruptible(async (signal) => {
      // Temporary files left by parts killed earlier (never a running writer's: see the store).
      await removeStaleTempFiles(target as Store, path);
      await runPartMode(job, parts, { resume: values.resume === true, concurrency, signal }, io);
      for (const s of job.skipped) io.error(`zarr: warning: skipped /${printable(s.path)} (not written): ${printable(s.reason)}`);
    });
    return;
  }
  await interruptible(async (signal) => {
    const bar = terminalProgress("chunks");
    const result = await convert(node, {
      ...(inPlace ? { inPlace: true } : { target, path }),
      registry,
      variableLengthStrings: values["variable-length-strings"] ?? false,
      strict: values.strict ?? false,
      signal,
      onProgress: (p) => bar?.update(p.done, p.total, undefined, "converting"),
    });
    bar?.end();
    const kept = inPlace ? "left as it is" : "not written";
    for (const s of result.skipped) io.error(`zarr: warning: skipped /${printable(s.path)} (${kept}): ${printable(s.reason)}`);
    const counts = new Map<string, number>();
    for (const a of result.arrays) counts.set(a.chunks, (counts.get(a.chunks) ?? 0) + 1);
    const summary = [...counts].map(([mode, n]) => `${n} ${mode}`).join(", ");
    const skipped = result.skipped.length === 0 ? "" : `; skipped ${result.skipped.length} unreadable array${result.skipped.length === 1 ? "" : "s"} (see the warnings; --strict fails instead)`;
    await io.write(
      `Converted ${result.arrays.length} arrays and ${result.groups.length} groups to Zarr v3${summary ? ` (chunks: ${summary})` : ""}${skipped}\n`,
    );
    for (const a of result.arrays) if (a.note !== undefined) await io.write(`  /${printable(a.path)}: ${printable(a.note)}\n`);
  });
}

/** `--zarr-format 3-draft`: the node (any format) written in the early v3 draft layout GDAL 3.6 reads. */
async function writeDraftCommand(node: Awaited<ReturnType<typeof open>>, target: Store, path: string, strict: boolean, io: CliIO): Promise<void> {
  await interruptible(async (signal) => {
    const bar = terminalProgress("chunks");
    // The draft's root is a group: an array at the root of SRC is written as /data.
    const at = node.kind === "array" && path === "" ? "data" : path;
    const result = await writeDraft(node, {
      target,
      path: at,
      strict,
      signal,
      onProgress: (p) => bar?.update(p.done, p.total, undefined, "rewriting"),
    });
    bar?.end();
    for (const s of result.skipped) io.error(`zarr: warning: skipped /${printable(s.path)} (not written): ${printable(s.reason)}`);
    const skipped = result.skipped.length === 0 ? "" : `; skipped ${result.skipped.length} unreadable array${result.skipped.length === 1 ? "" : "s"} (see the warnings; --strict fails instead)`;
    await io.write(
      `Wrote ${result.arrays.length} arrays and ${result.groups.length} groups in the early Zarr v3 draft layout (GDAL 3.6, zarr-python 2.13)${skipped}\n`,
    );
  });
}
