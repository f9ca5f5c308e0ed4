import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { workerModuleUrl, ZarrError } from "../src/index.js";
import { createWorkerPool } from "../src/workers/index.js";

// A worker module, as a codec package would ship one (plain JavaScript).
const dir = mkdtempSync(join(tmpdir(), "zarr-workers-"));
const moduleFile = join(dir, "task.mjs");
writeFileSync(
  moduleFile,
  `import { resourceLimits, threadId } from "node:worker_threads";
export function limits() { return resourceLimits; }
export function double(bytes) { const out = new Uint8Array(bytes.length); for (let i = 0; i < bytes.length; i++) out[i] = bytes[i] * 2; return out; }
export async function slowThread(ms) { await new Promise((r) => setTimeout(r, ms)); return threadId; }
export async function overlap(counters, ms) {
  const now = Atomics.add(counters, 0, 1) + 1;
  if (now > Atomics.load(counters, 1)) Atomics.store(counters, 1, now);
  await new Promise((r) => setTimeout(r, ms));
  Atomics.sub(counters, 0, 1);
  return threadId;
}
export function fail(key) { const e = new Error("bad chunk " + key); e.code = "CODEC_FAILED"; e.key = key; throw e; }
export function outOfMemory() { const e = new RangeError("Array buffer allocation failed"); e.code = "ERR_MEMORY_ALLOCATION_FAILED"; throw e; }
`,
);
const TASK = pathToFileURL(moduleFile).href;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("createWorkerPool", () => {
  const pool = createWorkerPool({ size: 2 });
  afterAll(() => pool.close());

  it("runs module exports in worker threads, moving buffers both ways", async () => {
    const input = new Uint8Array([1, 2, 3]);
    const out = await pool.run<Uint8Array>(TASK, "double", [input], [input.buffer]);
    expect(Array.from(out)).toEqual([2, 4, 6]);
    expect(input.byteLength).toBe(0); // moved, not copied
  });

  it("uses every worker at once", async () => {
    const ids = await Promise.all([1, 2, 3, 4].map(() => pool.run<number>(TASK, "slowThread", [100])));
    expect(new Set(ids).size).toBe(2);
    expect(ids.every((id) => id > 0)).toBe(true);
  });

  it("runs a worker script of the app's own (`url`): modules registered by name, as a bundled app does", async () => {
    const runtime = new URL("../dist/workers/runtime.js", import.meta.url).href;
    const script = join(dir, "app-worker.mjs");
    writeFileSync(
      script,
      `import { parentPort } from "node:worker_threads";
import { serveWorkerCalls } from ${JSON.stringify(runtime)};
serveWorkerCalls({
  modules: { "app/tasks": () => ({ triple: (x) => 3 * x }) },
  port: { postMessage: (m, t) => parentPort.postMessage(m, t), addEventListener: (_t, l) => parentPort.on("message", (data) => l({ data })) },
});
`,
    );
    const own = createWorkerPool({ size: 1, url: pathToFileURL(script) });
    try {
      expect(await own.run("app/tasks", "triple", [7])).toBe(21);
      // Core's own script registers no "app/tasks": only this one serves it.
      await expect(pool.run("app/tasks", "triple", [7])).rejects.toMatchObject({ code: "UNSUPPORTED" });
    } finally {
      await own.close();
    }
  });

  it("caps a worker's young generation at 2 MB unless told otherwise", async () => {
    expect((await pool.run<{ maxYoungGenerationSizeMb: number }>(TASK, "limits", [])).maxYoungGenerationSizeMb).toBe(2);
    const roomy = createWorkerPool({ size: 1, resourceLimits: { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 512 } });
    try {
      expect(await roomy.run(TASK, "limits", [])).toMatchObject({ maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 512 });
    } finally {
      await roomy.close();
    }
  });

  it("hands a worker its next call before it answers the current one", async () => {
    const one = createWorkerPool({ size: 1 });
    try {
      // [calls running now, most at once]
      const counters = new Int32Array(new SharedArrayBuffer(8));
      const ids = await Promise.all([1, 2, 3].map(() => one.run<number>(TASK, "overlap", [counters, 100])));
      expect(new Set(ids).size).toBe(1);
      expect(Atomics.load(counters, 1)).toBe(2); // never more than two per worker
    } finally {
      await one.close();
    }
  });

  it("returns errors as ZarrErrors with their code and key", async () => {
    const e = await pool.run(TASK, "fail", ["c/1/2"]).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ZarrError);
    expect((e as ZarrError).code).toBe("CODEC_FAILED");
    expect((e as ZarrError).key).toBe("c/1/2");
    const missing = await pool.run(TASK, "nope", []).catch((x: ZarrError) => x);
    expect((missing as ZarrError).message).toContain('no function export "nope"');
  });

  it("gives other errors (an allocation failure, a Node error code) the code CODEC_FAILED, never their own", async () => {
    const e = await pool.run(TASK, "outOfMemory", []).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ZarrError);
    expect(e).toMatchObject({ code: "CODEC_FAILED", message: "RangeError: Array buffer allocation failed (ERR_MEMORY_ALLOCATION_FAILED)" });
  });

  it("rejects calls after close", async () => {
    const p = createWorkerPool({ size: 1 });
    await p.close();
    await expect(p.run(TASK, "double", [new Uint8Array(1)])).rejects.toMatchObject({ code: "ABORTED" });
  });
});

it("workerModuleUrl points at compiled modules when running from sources", () => {
  expect(workerModuleUrl("file:///x/pkg/src/codec.ts", "task.js")).toBe("file:///x/pkg/dist/task.js");
  expect(workerModuleUrl("file:///x/pkg/dist/codec.js", "task.js")).toBe("file:///x/pkg/dist/task.js");
});
