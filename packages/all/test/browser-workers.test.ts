/**
 * The worker pool in a real browser: Debian's chromium driven by playwright-core (never a
 * browser download) loads a page bundled with esbuild, which reads a blosc and a zstd array
 * over HTTP with a pool of 4 module Web Workers (`@zarr/core/workers` under the "browser"
 * condition). The worker script is the one of @zarr/core's README (its `js worker-script`
 * block, calling `serveWorkerCalls`). The bytes must equal a main-thread read in the page
 * and a read here in Node.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build, type Plugin } from "esbuild";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveChromium, launchChromium, skipWithout } from "../../../scripts/test-env.mjs";
import { createArray, FileSystemStore, get, openArray, set } from "../src/index.js";
import { bundlePage, runInPage, tearDown } from "./browser/harness.js";
import type { PageReport } from "./browser/page.js";
import { startServer } from "./browser/serve.js";

it("bundlers targeting browsers get the Web Worker pool from the built @zarr/core/workers", async () => {
  const out = await build({
    stdin: { contents: 'export { createWorkerPool } from "@zarr/core/workers";', resolveDir: import.meta.dirname, loader: "ts" },
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    metafile: true,
    logLevel: "silent",
  });
  const inputs = Object.keys(out.metafile.inputs);
  expect(inputs.some((f) => f.endsWith("core/dist/workers/browser-pool.js"))).toBe(true);
  expect(inputs.some((f) => f.includes("node-pool"))).toBe(false);
});

/** The worker script of @zarr/core's README, as an esbuild plugin serving it as `readme:zarr-worker`. */
function readmeWorkerScript(): Plugin {
  const readme = readFileSync(join(import.meta.dirname, "..", "..", "core", "README.md"), "utf8");
  const script = /```js worker-script\n([\s\S]*?)```/.exec(readme)?.[1];
  if (script === undefined) throw new Error("packages/core/README.md has no ```js worker-script block");
  return {
    name: "readme-worker-script",
    setup(b) {
      b.onResolve({ filter: /^readme:zarr-worker$/ }, () => ({ path: "zarr-worker.js", namespace: "readme" }));
      b.onLoad({ filter: /.*/, namespace: "readme" }, () => ({ contents: script, loader: "js", resolveDir: import.meta.dirname }));
    },
  };
}

const missing = skipWithout(haveChromium(), "Debian's chromium (/usr/bin/chromium)");

const ARRAYS: Record<string, { shape: number[]; chunkShape: number[]; dataType: "float64" | "int32"; codecs: unknown[] }> = {
  blosc: {
    shape: [256, 512],
    chunkShape: [128, 256], // 256 KiB chunks: large enough for the workers
    dataType: "float64",
    codecs: [
      { name: "bytes", configuration: { endian: "little" } },
      { name: "blosc", configuration: { cname: "lz4", clevel: 5, shuffle: "shuffle", typesize: 8, blocksize: 0 } },
    ],
  },
  // Decoded with the browser's DecompressionStream, in the workers and on the main thread.
  gzip: {
    shape: [200, 300],
    chunkShape: [64, 128],
    dataType: "float64",
    codecs: [
      { name: "bytes", configuration: { endian: "little" } },
      { name: "gzip", configuration: { level: 5 } },
    ],
  },
  zstd: {
    shape: [300, 500],
    chunkShape: [128, 256], // 128 KiB chunks, ragged at the edges
    dataType: "int32",
    codecs: [
      { name: "transpose", configuration: { order: [1, 0] } },
      { name: "bytes", configuration: { endian: "little" } },
      { name: "zstd", configuration: { level: 1, checksum: true } },
    ],
  },
};

function values(name: string, n: number): Float64Array | Int32Array {
  if (name === "blosc" || name === "gzip") return Float64Array.from({ length: n }, (_, i) => Math.sin(i / 100) * 1000 + (i % 7));
  return Int32Array.from({ length: n }, (_, i) => (i * 2654435761) % 100_003);
}

describe.skipIf(missing)("a pool of module Web Workers in chromium", () => {
  let dir: string;
  let server: { url: string; close(): Promise<void> };
  let browser: Browser | undefined;
  const nodeBytes = new Map<string, Buffer>();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "zarr-browser-workers-"));
    const storeDir = join(dir, "store");
    const pageDir = join(dir, "page");
    const store = new FileSystemStore(storeDir);
    for (const [name, spec] of Object.entries(ARRAYS)) {
      const arr = await createArray(store, name, { ...spec, codecs: spec.codecs as never[] });
      await set(arr, null, values(name, spec.shape[0] * spec.shape[1]));
      const read = (await get(await openArray(store, name))).data as Float64Array | Int32Array;
      nodeBytes.set(name, Buffer.from(read.buffer, read.byteOffset, read.byteLength));
    }
    // An array with a corrupt chunk: the worker's error must reach the page with its key.
    const bad = await createArray(store, "bad", { ...ARRAYS.zstd, codecs: ARRAYS.zstd.codecs as never[] });
    await set(bad, null, values("zstd", 300 * 500));
    const chunk = join(storeDir, "bad", "c", "0", "1");
    const bytes = readFileSync(chunk);
    bytes[bytes.length - 1] ^= 0xff; // the checksum
    writeFileSync(chunk, bytes);

    const entries = { page: join(import.meta.dirname, "browser", "page.ts"), "zarr-worker": "readme:zarr-worker" };
    await bundlePage(pageDir, entries, "page", { splitting: true, plugins: [readmeWorkerScript()] });
    server = await startServer(pageDir, storeDir);
    browser = await launchChromium();
  }, 120_000);

  afterAll(() => tearDown(browser, server, dir));

  async function report(base: string): Promise<{ report: PageReport; errors: string[] }> {
    const { result, errors } = await runInPage(
      browser as Browser,
      base,
      "zarrWorkers",
      (page) =>
        page.evaluate(
          ([data, names]) => (globalThis as unknown as { zarrWorkers(d: string, n: string[]): Promise<PageReport> }).zarrWorkers(data, names),
          [`${server.url}data/`, Object.keys(ARRAYS)] as [string, string[]],
        ),
      { consoleErrors: true },
    );
    return { report: result, errors };
  }

  it("reads blosc, gzip and zstd arrays in 4 workers, with the bytes of a main-thread read and of Node", async () => {
    const { report: r, errors } = await report(server.url);
    expect(r.size).toBe(4);
    expect(r.crossOriginIsolated).toBe(true);
    expect(r.sharedArrayBuffer).toBe(true);
    expect(r.arrays.map((a) => a.name)).toEqual(["blosc", "gzip", "zstd"]);
    expect(r.gzipBackend).toBe("DecompressionStream");
    // blosc and zstd decode through the WebAssembly kernels here (and in Node), with equal bytes.
    expect(r.kernels).toBe(true);
    for (const a of r.arrays) {
      const { shape, chunkShape } = ARRAYS[a.name];
      const chunks = Math.ceil(shape[0] / chunkShape[0]) * Math.ceil(shape[1] / chunkShape[1]);
      expect(a.calls, a.name).toBe(chunks); // every chunk went to the pool
      expect(a.shared, a.name).toBe(true);
      expect(a.equal, a.name).toBe(true);
      expect(Buffer.from(a.bytes, "base64").equals(nodeBytes.get(a.name) as Buffer), a.name).toBe(true);
    }
    // A chunk failing in a worker rejects the read with its code and key.
    expect(r.failure).toMatchObject({ code: "CHECKSUM_MISMATCH", key: "bad/c/0/1" });
    expect(r.failure?.message).toContain("bad/c/0/1");
    // An aborted read rejects with ABORTED and leaves no call of the pool unsettled.
    expect(r.aborted.code).toBe("ABORTED");
    expect(r.aborted.calls).toBeGreaterThan(0);
    expect(r.aborted.settled).toBe(r.aborted.calls);
    expect(errors).toEqual([]);
  });

  it("reads on the main thread when the page is not cross-origin isolated (no SharedArrayBuffer)", async () => {
    const { report: r, errors } = await report(`${server.url}plain/`);
    expect(r.crossOriginIsolated).toBe(false);
    expect(r.sharedArrayBuffer).toBe(false);
    for (const a of r.arrays) {
      expect(a.calls, a.name).toBe(0);
      expect(a.equal, a.name).toBe(true);
      expect(Buffer.from(a.bytes, "base64").equals(nodeBytes.get(a.name) as Buffer), a.name).toBe(true);
    }
    expect(r.failure).toMatchObject({ code: "CHECKSUM_MISMATCH" });
    expect(errors).toEqual([]);
  });
});
