/**
 * `--part i/n`, `--parts n`, `--init`, `--finalize`: running one part of a partitioned job
 * (see `runPart` in @zarr/store-utils) from any batch scheduler. Without `--part`, the
 * index comes from the scheduler's environment: `JOB_COMPLETION_INDEX` (Kubernetes Indexed
 * Jobs) or `AWS_BATCH_JOB_ARRAY_INDEX` (AWS Batch array jobs).
 */
import { finalizeJob, initJob, type PartitionedJob, type Region, runPart } from "@zarr/store-utils";
import type { CliIO } from "./cli-io.js";
import { terminalProgress } from "./progress.js";
import { UsageError } from "./usage-error.js";

/** The options every partitioned command adds to its own. */
export const PART_OPTIONS = {
  part: { type: "string" },
  parts: { type: "string" },
  init: { type: "boolean" },
  finalize: { type: "boolean" },
} as const;

/** What the part options ask for. */
export type PartMode = { mode: "init" } | { mode: "finalize"; n: number } | { mode: "part"; i: number; n: number };

/** The environment variables a part index is read from, in order. */
export const PART_INDEX_VARIABLES = ["JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX"] as const;

const MAX_PARTS = 1_000_000;

function count(command: string, text: string, what: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > MAX_PARTS) throw new UsageError(`${what} must be an integer from 1 to ${MAX_PARTS}, got ${JSON.stringify(text)}`, command);
  return n;
}

function index(command: string, text: string, n: number, where: string): number {
  const i = Number(text);
  if (!/^\d+$/.test(text) || i >= n) throw new UsageError(`${where} must be a part index from 0 to ${n - 1}, got ${JSON.stringify(text)}`, command);
  return i;
}

/** Reads the part options; `undefined` when none is given (the command runs whole). */
export function partMode(
  command: string,
  values: { part?: string; parts?: string; init?: boolean; finalize?: boolean },
  env: Record<string, string | undefined> = process.env,
): PartMode | undefined {
  const { part, parts, init, finalize } = values;
  if (init && finalize) throw new UsageError("--init and --finalize are separate steps: give one", command);
  if (init) {
    if (part !== undefined || parts !== undefined) throw new UsageError("--init runs before the parts: it takes no --part or --parts", command);
    return { mode: "init" };
  }
  let n: number | undefined;
  let i: number | undefined;
  if (part !== undefined) {
    const m = /^(\d+)\/(\d+)$/.exec(part);
    if (m === null) throw new UsageError(`--part is i/n (part i of n, from 0), got ${JSON.stringify(part)}`, command);
    n = count(command, m[2], "The n of --part i/n");
    i = index(command, m[1], n, "The i of --part i/n");
    if (parts !== undefined && count(command, parts, "--parts") !== n) throw new UsageError(`--part ${part} and --parts ${parts} disagree`, command);
  } else if (parts !== undefined) {
    n = count(command, parts, "--parts");
  }
  if (finalize) {
    if (n === undefined) throw new UsageError("--finalize needs the number of parts: --parts n", command);
    return { mode: "finalize", n };
  }
  if (n === undefined) return undefined;
  if (i === undefined) {
    const variable = PART_INDEX_VARIABLES.find((v) => env[v] !== undefined && env[v] !== "");
    if (variable === undefined) {
      throw new UsageError(`--parts ${n} needs the part index: --part i/${n}, or ${PART_INDEX_VARIABLES.join(" or ")} in the environment`, command);
    }
    i = index(command, env[variable] as string, n, variable);
  }
  return { mode: "part", i, n };
}

/** Runs the step `mode` asks for of `job` and prints one line saying what it did. */
export async function runPartMode(
  job: PartitionedJob,
  mode: PartMode,
  options: { resume: boolean; concurrency?: number; signal: AbortSignal; regions?: readonly Region[] },
  io: CliIO,
): Promise<void> {
  const { signal, regions } = options;
  if (mode.mode === "init") {
    const r = await initJob(job, { signal });
    await io.write(`${job.kind} job ${r.job}: wrote ${r.written} setup objects (${r.unchanged} already there); run the parts next\n`);
    return;
  }
  if (mode.mode === "finalize") {
    const r = await finalizeJob(job, mode.n, { signal, regions });
    const what = r.alreadyFinalized ? "was already finalized" : `finalized: all ${mode.n} parts done, wrote ${r.written} setup objects (${r.unchanged} already there), markers removed`;
    await io.write(`${job.kind} job ${r.job} ${what}\n`);
    return;
  }
  const bar = terminalProgress("units");
  try {
    const r = await runPart(job, mode.i, mode.n, {
      resume: options.resume,
      concurrency: options.concurrency,
      regions,
      signal,
      onProgress: ({ done, total, bytes }) => bar?.update(done, total, bytes),
    });
    bar?.end();
    const skipped = r.skipped > 0 ? `, ${r.skipped} already there` : "";
    await io.write(`${job.kind} job ${r.job} part ${r.part}/${r.parts}: wrote ${r.written} of ${r.units} units (${(r.bytes / 1048576).toFixed(1)} MiB)${skipped}; marker ${r.marker}\n`);
  } catch (error) {
    bar?.end();
    throw error;
  }
}

/**
 * `--regions`: one box per part, `R0:R1,C0:C1` (rows, then columns, `[start, stop)`), parts
 * separated by `;`. Checked against the chunks when the job is planned.
 */
export function parseRegions(command: string, text: string): Region[] {
  return text.split(";").map((part, i) => {
    const dims = part.split(",").map((range) => /^\s*(\d+):(\d+)\s*$/.exec(range));
    if (dims.length === 0 || dims.some((m) => m === null)) {
      throw new UsageError(`--regions: region ${i} is START:STOP,START:STOP (rows, columns), got ${JSON.stringify(part)}`, command);
    }
    return dims.map((m) => [Number((m as RegExpExecArray)[1]), Number((m as RegExpExecArray)[2])] as const);
  });
}
