/**
 * Crash-safe `zarr put`: a put killed with SIGKILL at a seeded random moment leaves either
 * the complete, correct array or a path that reads as an interrupted write (a coded
 * error), never an array of fill values; `put --resume` then finishes it, the data equals
 * the source, and no temporary file or marker is left.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { get, open, ZarrError } from "@zarr/core";
import { INCOMPLETE_MARKER } from "@zarr/core/extensions";
import { FileSystemStore } from "@zarr/store-fs";
import { describe, expect, it } from "vitest";
import { mulberry32 as random } from "../../../scripts/test-random.mjs";
import { formatNpyHeader } from "../src/npy-header.js";
import { cliRegistry } from "../src/registry.js";
import { CLI, tempDir, zarrOk } from "./helpers.js";

const RUNS = 20;
const SEED = 0x5eed13;
const SHAPE = [512, 512];
const PUT_ARGS = ["g/x", "--chunks", "16,16"];

function writeInput(file: string, next: () => number): Float32Array {
  const values = new Float32Array(SHAPE[0] * SHAPE[1]);
  for (let i = 0; i < values.length; i++) values[i] = next() * 1000;
  const header = formatNpyHeader("<f4", SHAPE);
  fs.writeFileSync(file, Buffer.concat([header, new Uint8Array(values.buffer)]));
  return values;
}

/** Runs `zarr put`, killing it with SIGKILL after `delayMs` unless it finished first. */
function putKilledAfter(store: string, input: string, delayMs: number): Promise<{ killed: boolean; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [CLI, "put", store, ...PUT_ARGS, "--from", input], { stdio: "ignore" });
    const timer = setTimeout(() => child.kill("SIGKILL"), delayMs);
    child.on("error", reject);
    // 'exit' fires once the child is reaped: no zombie keeps its pid alive.
    child.on("exit", (_code, signal) => {
      clearTimeout(timer);
      resolve({ killed: signal === "SIGKILL", ms: performance.now() - started });
    });
  });
}

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(dir, f)).isFile());
}

type State = "absent" | "interrupted" | "complete";

/** What a reader sees at g/x: a complete array equal to the source, or a coded "not there" error. */
async function readerSees(store: string, source: Float32Array): Promise<State> {
  try {
    const array = await open(new FileSystemStore(store, { readOnly: true }), "g/x", { registry: cliRegistry() });
    expect(array.kind).toBe("array");
    const data = await get(array as Parameters<typeof get>[0]);
    // Never fill values: every element equals the source.
    expect(Buffer.compare(Buffer.from((data.data as Float32Array).buffer), Buffer.from(source.buffer))).toBe(0);
    return "complete";
  } catch (error) {
    if (!(error instanceof ZarrError)) throw error;
    expect(error.code).toBe("NODE_NOT_FOUND");
    const marked = fs.existsSync(path.join(store, "g", "x", INCOMPLETE_MARKER));
    if (marked) expect(error.message).toMatch(/interrupted/);
    return marked ? "interrupted" : "absent";
  }
}

describe("zarr put killed with SIGKILL", () => {
  it(`${RUNS} seeded kills: complete or reported incomplete, and --resume finishes each`, { timeout: 120_000 }, async () => {
    const dir = tempDir("zarr-crash-");
    const next = random(SEED);
    const input = path.join(dir, "in.npy");
    const source = writeInput(input, next);
    // Uninterrupted puts set the time scale (machines differ several-fold); the faster of two.
    const calibrations = [
      await putKilledAfter(path.join(dir, "calibration-1.zarr"), input, 60_000),
      await putKilledAfter(path.join(dir, "calibration-2.zarr"), input, 60_000),
    ];
    for (const c of calibrations) expect(c.killed).toBe(false);
    // The scale follows the machine's load as the runs go: a put that finished before its
    // kill shortens it, one killed before it wrote anything lengthens it, so kills keep
    // landing while chunks are written on a busy machine too.
    let scale = Math.min(...calibrations.map((c) => c.ms));
    const states: Record<State, number> = { absent: 0, interrupted: 0, complete: 0 };
    let reused = 0;
    for (let run = 0; run < RUNS; run++) {
      const store = path.join(dir, `run-${run}.zarr`);
      // Past start-up (most of a short put), up to a little after the calibrated end.
      const delay = Math.round((0.3 + 0.85 * next()) * scale);
      const outcome = await putKilledAfter(store, input, delay);
      const state = await readerSees(store, source);
      states[state]++;
      if (!outcome.killed) scale *= 0.85;
      else if (state === "absent") scale *= 1.1;
      const resumed = await zarrOk(["put", store, ...PUT_ARGS, "--from", input, "--resume"]);
      const already = /resumed: (\d+) chunks were already in place/.exec(resumed.stdout.toString());
      if (already !== null) reused += Number(already[1]);
      expect(await readerSees(store, source), `run ${run} (killed after ${delay} ms) after --resume`).toBe("complete");
      const leftovers = filesUnder(store).filter((f) => f.endsWith(".zarr-tmp") || f.endsWith(INCOMPLETE_MARKER));
      expect(leftovers, `run ${run}: temporary files or marker left after --resume`).toEqual([]);
    }
    // The kills really landed while chunks were being written, and resumes kept their work.
    expect(states.interrupted, JSON.stringify(states)).toBeGreaterThan(0);
    expect(reused, JSON.stringify(states)).toBeGreaterThan(0);
  });
});
