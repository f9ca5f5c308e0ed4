// The browser test page: reads arrays over HTTP on the main thread and with a pool of
// module Web Workers, and reports what it saw to the test (window.zarrWorkers).
import { blosc } from "@zarr/codec-blosc";
import { backendName, gzip } from "@zarr/codec-gzip";
import { zstd } from "@zarr/codec-zstd";
import { createRegistry, get, openArray } from "@zarr/core";
import { createWorkerPool } from "@zarr/core/workers";
import { type TypedArray, type WorkerPool, wasmKernelsEnabled } from "@zarr/spec";
import { HttpStore } from "@zarr/store-http";

/** What the page reports about one array. */
export interface ArrayReport {
  name: string;
  /** Calls the pool ran for the read with `workers`. */
  calls: number;
  /** The read with `workers` returned a result on a SharedArrayBuffer. */
  shared: boolean;
  /** Its bytes equal those of the main-thread read. */
  equal: boolean;
  /** Its bytes, base64. */
  bytes: string;
}

/** What the page reports. */
export interface PageReport {
  /** Workers of the pool. */
  size: number;
  crossOriginIsolated: boolean;
  sharedArrayBuffer: boolean;
  arrays: ArrayReport[];
  /** The error of reading `bad` with `workers`. */
  failure: { code?: string; key?: string; message: string } | undefined;
  /** WebAssembly kernels (blosc, LZ4, zstd) are on in the page: the browser has WebAssembly SIMD. */
  kernels: boolean;
  /** The gzip codec's decoder on the page's main thread (`DecompressionStream` where the browser has it). */
  gzipBackend: string;
  /** A read with `workers` aborted once its first pool call was made: its error code, and the pool calls it made and that have settled. */
  aborted: { code: string | undefined; calls: number; settled: number };
}

function bytesOf(data: TypedArray): Uint8Array {
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

function base64(bytes: Uint8Array): string {
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

async function run(dataUrl: string, names: string[]): Promise<PageReport> {
  const registry = createRegistry([blosc, zstd, gzip]);
  const store = new HttpStore(dataUrl);
  const pool = createWorkerPool({ size: 4, url: new URL("./zarr-worker.js", import.meta.url) });
  let calls = 0;
  const workers: WorkerPool = {
    size: pool.size,
    run(moduleUrl, exportName, args, transfer, options) {
      calls++;
      return pool.run(moduleUrl, exportName, args, transfer, options);
    },
    close: () => pool.close(),
  };
  try {
    const arrays: ArrayReport[] = [];
    for (const name of names) {
      const arr = await openArray(store, name, { registry });
      const here = await get(arr);
      const before = calls;
      const there = await get(arr, null, { workers });
      const bytes = bytesOf(there.data as TypedArray);
      arrays.push({
        name,
        calls: calls - before,
        shared: typeof SharedArrayBuffer === "function" && bytes.buffer instanceof SharedArrayBuffer,
        equal: sameBytes(bytes, bytesOf(here.data as TypedArray)),
        bytes: base64(bytes),
      });
    }
    let failure: PageReport["failure"];
    try {
      await get(await openArray(store, "bad", { registry }), null, { workers });
    } catch (error) {
      const e = error as { code?: string; key?: string; message: string };
      failure = { code: e.code, key: e.key, message: e.message };
    }
    const aborted = await abortedRead(pool, await openArray(store, names[0], { registry }));
    return { size: pool.size, crossOriginIsolated, sharedArrayBuffer: typeof SharedArrayBuffer === "function", arrays, failure, kernels: wasmKernelsEnabled(), gzipBackend: backendName, aborted };
  } finally {
    await pool.close();
  }
}

/** Reads `arr` with `pool`, aborting once the first call is made; waits (up to 5 s) for every call to settle. */
async function abortedRead(pool: WorkerPool, arr: Parameters<typeof get>[0]): Promise<PageReport["aborted"]> {
  const controller = new AbortController();
  let calls = 0;
  let settled = 0;
  const workers: WorkerPool = {
    size: pool.size,
    run<R>(...call: Parameters<WorkerPool["run"]>): Promise<R> {
      if (++calls === 1) queueMicrotask(() => controller.abort());
      return pool.run<R>(...call).finally(() => settled++);
    },
    close: () => pool.close(),
  };
  const code = await get(arr, null, { workers, signal: controller.signal }).then(
    () => undefined,
    (error: { code?: string }) => error.code,
  );
  for (let i = 0; i < 500 && settled < calls; i++) await new Promise((r) => setTimeout(r, 10));
  return { code, calls, settled };
}

(globalThis as { zarrWorkers?: typeof run }).zarrWorkers = run;
