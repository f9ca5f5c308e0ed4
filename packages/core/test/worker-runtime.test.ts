/**
 * The worker runtime (`serveWorkerCalls`) and the browser pool, in Node: a `MessageChannel`
 * stands in for a Web Worker's message port, served on this thread.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it, vi } from "vitest";
import { MetadataError, takesCallContext, throwIfAborted, type WorkerCallContext, ZarrError } from "../src/index.js";
import { createWorkerPool, type WebWorkerLike } from "../src/workers/browser.js";
import { CALLS_PER_WORKER } from "../src/workers/pool-core.js";
import type { ResultMessage, TaskMessage } from "../src/workers/protocol.js";
import { serveWorkerCalls } from "../src/workers/runtime.js";
import { loadWorkerModule } from "../src/workers/worker-modules.js";

const dir = mkdtempSync(join(tmpdir(), "zarr-worker-runtime-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const fileModule = join(dir, "by-url.mjs");
writeFileSync(fileModule, `export const where = "url"; export function triple(x) { return 3 * x; }\n`);
const FILE_URL = pathToFileURL(fileModule).href;

let slowRunning = 0;
let slowMost = 0;
const stoppable = { running: 0, stopped: 0 };
const registered = {
  /** Runs until its call is cancelled. */
  untilCancelled: takesCallContext(async (context: WorkerCallContext) => {
    stoppable.running++;
    await new Promise((resolve) => context.signal.addEventListener("abort", resolve));
    stoppable.stopped++;
    throwIfAborted(context.signal);
  }),
  where: "registered",
  twice: (x: number) => 2 * x,
  fail(key: string) {
    throw new ZarrError("CHECKSUM_MISMATCH", `bad chunk "${key}"`, { key });
  },
  /** A ZarrError subclass: its code and JSON path must survive the trip. */
  invalid(key: string) {
    throw new MetadataError(["codecs", 1, "configuration"], "no level", { key });
  },
  /** Not a ZarrError, though it has a code that looks like one of ours. */
  impostor() {
    throw Object.assign(new Error("not ours"), { name: "ZarrError", code: "NODE_NOT_FOUND" });
  },
  async slow(ms: number) {
    slowMost = Math.max(slowMost, ++slowRunning);
    await new Promise((r) => setTimeout(r, ms));
    slowRunning--;
    return ms;
  },
};

/** A "worker" whose calls are served on this thread by the runtime, over a MessageChannel. */
function channelWorker(log: { posted: number; terminated: number }): WebWorkerLike {
  const { port1, port2 } = new MessageChannel();
  serveWorkerCalls({ modules: { "test/math": () => Promise.resolve(registered) }, port: port2 });
  return {
    postMessage(message, transfer) {
      log.posted++;
      port1.postMessage(message, transfer);
    },
    addEventListener(type, listener) {
      if (type === "message") port1.addEventListener("message", listener as (e: MessageEvent) => void);
      port1.start();
    },
    terminate() {
      log.terminated++;
      port1.close();
    },
  };
}

/** Sends one call to a runtime served on a MessageChannel; resolves its reply. */
async function call(moduleUrl: string, exportName: string, args: unknown[]): Promise<ResultMessage> {
  const { port1, port2 } = new MessageChannel();
  serveWorkerCalls({ modules: { "test/math": () => registered }, port: port2 });
  try {
    return await new Promise<ResultMessage>((resolve) => {
      port1.onmessage = (e) => resolve(e.data as ResultMessage);
      port1.postMessage({ id: 7, moduleUrl, exportName, args } satisfies TaskMessage);
    });
  } finally {
    port1.close();
  }
}

describe("serveWorkerCalls", () => {
  it("calls exports of registered modules by name and of other modules by URL", async () => {
    expect(await call("test/math", "twice", [21])).toEqual({ id: 7, ok: true, value: 42 });
    expect(await call(FILE_URL, "triple", [5])).toEqual({ id: 7, ok: true, value: 15 });
  });

  it("answers failures with the error's code, key and message", async () => {
    expect(await call("test/math", "fail", ["c/0/1"])).toEqual({
      id: 7,
      ok: false,
      error: { name: "ZarrError", message: 'bad chunk "c/0/1"', code: "CHECKSUM_MISMATCH", key: "c/0/1", zarr: true },
    });
    const missing = await call("test/math", "nope", []);
    expect(missing).toMatchObject({ ok: false, error: { message: 'test/math has no function export "nope"' } });
    const unknown = await call("@zarr/codec-nowhere", "zstd", []);
    expect(unknown).toMatchObject({ ok: false, error: { code: "UNSUPPORTED" } });
    expect(unknown.ok || unknown.error.message).toContain('Worker module "@zarr/codec-nowhere" could not be loaded: it is not registered with serveWorkerCalls');
  });

  it("answers a call cancelled while its module loads with ABORTED, never starting the export", async () => {
    const { port1, port2 } = new MessageChannel();
    let calls = 0;
    const slowModule = () => new Promise<object>((r) => setTimeout(() => r({ count: () => ++calls }), 50));
    serveWorkerCalls({ modules: { "test/slow-load": slowModule }, port: port2 });
    try {
      const reply = new Promise<ResultMessage>((resolve) => {
        port1.onmessage = (e) => resolve(e.data as ResultMessage);
      });
      port1.postMessage({ id: 3, moduleUrl: "test/slow-load", exportName: "count", args: [] } satisfies TaskMessage);
      port1.postMessage({ cancel: 3 });
      expect(await reply).toMatchObject({ id: 3, ok: false, error: { name: "ZarrError", code: "ABORTED" } });
      expect(calls).toBe(0);
    } finally {
      port1.close();
    }
  });

  it("needs a port outside a Web Worker", () => {
    expect(() => serveWorkerCalls({})).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
  });
});

describe("loadWorkerModule", () => {
  it("prefers a registered moduleName to the module URL, and falls back to the URL", async () => {
    await call("test/math", "twice", [1]); // registers "test/math"
    expect((await loadWorkerModule({ moduleUrl: FILE_URL, moduleName: "test/math" })).where).toBe("registered");
    expect((await loadWorkerModule({ moduleUrl: FILE_URL, moduleName: "@zarr/not-registered" })).where).toBe("url");
    await expect(loadWorkerModule({ moduleUrl: "https://bundle.example/codec.js", moduleName: "@zarr/codec-x" })).rejects.toMatchObject({
      code: "UNSUPPORTED",
      message: expect.stringContaining('"@zarr/codec-x" (https://bundle.example/codec.js)'),
    });
  });
});

describe("the browser createWorkerPool", () => {
  it("takes a DOM Worker as a WebWorkerLike", () => {
    const start: () => WebWorkerLike = () => new Worker("zarr-worker.js", { type: "module" });
    expect(typeof start).toBe("function");
  });

  it("runs calls in its workers, at most `size` of them, each handed at most CALLS_PER_WORKER calls", async () => {
    const logs: { posted: number; terminated: number }[] = [];
    const pool = createWorkerPool({
      size: 3,
      createWorker: () => {
        const log = { posted: 0, terminated: 0 };
        logs.push(log);
        return channelWorker(log);
      },
    });
    expect(pool.size).toBe(3);
    slowRunning = slowMost = 0;
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => pool.run<number>("test/math", "slow", [20 + i])));
    expect(results).toEqual(Array.from({ length: 10 }, (_, i) => 20 + i));
    expect(logs).toHaveLength(3);
    expect(logs.reduce((n, l) => n + l.posted, 0)).toBe(10);
    // All workers serve on this one thread: at most 3 workers × CALLS_PER_WORKER calls were out at once.
    expect(slowMost).toBe(3 * CALLS_PER_WORKER);
    await expect(pool.run("test/math", "fail", ["c/9"])).rejects.toMatchObject({ code: "CHECKSUM_MISMATCH", key: "c/9" });
    await expect(pool.run("test/math", "invalid", ["a/zarr.json"])).rejects.toMatchObject({
      code: "METADATA_INVALID",
      key: "a/zarr.json",
      jsonPath: "$.codecs[1].configuration",
      message: 'Invalid metadata in "a/zarr.json" at $.codecs[1].configuration: no level',
    });
    await expect(pool.run("test/math", "impostor", [])).rejects.toMatchObject({
      code: "CODEC_FAILED",
      message: "ZarrError: not ours (NODE_NOT_FOUND)",
    });
    await pool.close();
    expect(logs.every((l) => l.terminated === 1)).toBe(true);
    await expect(pool.run("test/math", "twice", [1])).rejects.toMatchObject({ code: "ABORTED" });
  });

  it("cancels calls: a queued one without sending it, a running one through the signal its export gets", async () => {
    const log = { posted: 0, terminated: 0 };
    const pool = createWorkerPool({ size: 1, createWorker: () => channelWorker(log) });
    const controller = new AbortController();
    const { signal } = controller;
    const code = (p: Promise<unknown>) => p.catch((e: ZarrError) => e.code);
    const running = [1, 2].map(() => code(pool.run("test/math", "untilCancelled", [], [], { signal })));
    const queued = code(pool.run("test/math", "twice", [1], [], { signal }));
    while (stoppable.running < 2) await new Promise((r) => setTimeout(r, 1));
    controller.abort();
    expect(await Promise.all([...running, queued])).toEqual(["ABORTED", "ABORTED", "ABORTED"]);
    expect(stoppable.stopped).toBe(2);
    expect(log.posted).toBe(4); // two calls and their two cancel messages; the queued call was never sent
    expect(await pool.run("test/math", "twice", [4], [], { signal: new AbortController().signal })).toBe(8);
    await pool.close();
  });

  it("fails the calls of a worker that reports an error, and starts another", async () => {
    const listeners: ((e: unknown) => void)[] = [];
    let started = 0;
    const pool = createWorkerPool({
      size: 1,
      createWorker: () => {
        started++;
        const worker = channelWorker({ posted: 0, terminated: 0 });
        if (started === 1) {
          // The first worker never answers and then reports a script error.
          return {
            postMessage: () =>
              queueMicrotask(() => {
                for (const l of listeners) l({ message: "Uncaught SyntaxError" });
              }),
            addEventListener: (type, l) => {
              if (type === "error") listeners.push(l as (e: unknown) => void);
            },
            terminate: () => {},
          };
        }
        return worker;
      },
    });
    await expect(pool.run("test/math", "twice", [1])).rejects.toMatchObject({ code: "CODEC_FAILED", message: "A web worker failed: Uncaught SyntaxError" });
    expect(await pool.run("test/math", "twice", [2])).toBe(4);
    expect(started).toBe(2);
    await pool.close();
  });

  it("needs a worker script, and defaults to navigator.hardwareConcurrency workers", async () => {
    expect(() => createWorkerPool({ size: 2 })).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT", message: expect.stringContaining("serveWorkerCalls") }));
    vi.stubGlobal("navigator", { hardwareConcurrency: 6 });
    try {
      const pool = createWorkerPool({ url: "https://app.example/zarr-worker.js" });
      expect(pool.size).toBe(6);
      await pool.close();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
