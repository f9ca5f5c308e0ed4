import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { shardingIndexed } from "@zarr/codec-sharding";
import { createArray, createRegistry, get, MemoryStore, openArray, set, slice } from "@zarr/core";
import type { Store } from "@zarr/spec";
import { FileSystemStore } from "@zarr/store-fs";
import { HttpStore } from "@zarr/store-http";
import { writeZip, ZipStore } from "@zarr/store-zip";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CachingStore, CountingStore, copy } from "../src/index.js";
import { startServer, type TestServer } from "./http-server.js";

const registry = createRegistry([shardingIndexed]);
const N = 64;
let root: string;
let server: TestServer;
/** The keys and values of the zipped hierarchy. */
let source: MemoryStore;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "zarr-utils-http-"));
  // A sharded array: 2×2 shards of 32×32, each holding 4×4 inner chunks of 8×8.
  const fs = new FileSystemStore(join(root, "sharded.zarr"));
  const arr = await createArray(fs, "", {
    shape: [N, N],
    dataType: "int32",
    chunkShape: [32, 32],
    codecs: [
      {
        name: "sharding_indexed",
        configuration: {
          chunk_shape: [8, 8],
          codecs: [{ name: "bytes", configuration: { endian: "little" } }],
          index_codecs: [{ name: "bytes", configuration: { endian: "little" } }],
        },
      },
    ],
    registry,
  });
  await set(arr, null, new Int32Array(N * N).map((_, i) => i));
  // A hierarchy of 30 keys, zipped: a listable source served over plain HTTP.
  source = new MemoryStore();
  for (let i = 0; i < 30; i++) source.map.set(`a/c/${i}`, new Uint8Array(20_000 + i).map((_, j) => (i * 7 + j) & 255));
  source.map.set("zarr.json", new TextEncoder().encode('{"zarr_format":3,"node_type":"group","attributes":{}}'));
  await writeZip(source, new FileSystemStore(root), "data.zip");
  server = await startServer(root);
});
afterAll(async () => {
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});
beforeEach(() => server.reset());

const http = (path: string) => new HttpStore(`${server.url}${path}`, { retries: 3, retryDelay: 1, maxRetryDelay: 5 });

describe("a sharded array over HTTP", () => {
  it("a 1×1 selection costs two requests (index + inner chunk) cold, one warm", async () => {
    const counted = new CountingStore(http("sharded.zarr"));
    const arr = await openArray(counted, "", { registry });
    counted.reset();
    server.reset();
    const one = await get(arr, [37, 45]);
    expect(Array.from(one.data as Int32Array)).toEqual([37 * N + 45]);
    expect(counted.reads).toBe(2);
    expect(counted.requests.map((r) => r.method)).toEqual(["getRange", "getRange"]);
    expect(server.requests.length).toBe(2);
    expect(server.requests.map((r) => r.path)).toEqual(["sharded.zarr/c/1/1", "sharded.zarr/c/1/1"]);
    expect(server.requests[0].range).toMatch(/^bytes=-\d+$/); // the index: a suffix request, no HEAD

    counted.reset();
    server.reset();
    const other = await get(arr, [60, 33]); // another inner chunk of the same shard
    expect(Array.from(other.data as Int32Array)).toEqual([60 * N + 33]);
    expect(counted.reads).toBe(1);
    expect(server.requests.length).toBe(1);
  });

  it("through a CachingStore, repeating a selection costs no request", async () => {
    const counted = new CountingStore(http("sharded.zarr"));
    const arr = await openArray(new CachingStore(counted, { maxBytes: 1 << 20 }), "", { registry });
    counted.reset();
    const first = await get(arr, [slice(0, 3), slice(10, 12)]);
    counted.reset();
    const again = await get(arr, [slice(0, 3), slice(10, 12)]);
    expect(again.data).toEqual(first.data);
    expect(counted.reads).toBe(0);
  });
});

/** Byte equality (vitest's deep equality is slow on large typed arrays). */
function same(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  return a !== undefined && b !== undefined && Buffer.from(a.buffer, a.byteOffset, a.length).equals(b);
}

/** Asserts every key of `dst` holds exactly the source's value: nothing partial, nothing corrupt. */
async function expectNothingPartial(dst: Store): Promise<number> {
  let n = 0;
  for await (const key of dst.list!()) {
    expect(same(await dst.get(key), source.map.get(key)), key).toBe(true);
    n++;
  }
  return n;
}

describe("copy from a zip archive over a faulty HTTP server", () => {
  it("recovers from a few resets and truncated bodies through the store's retries, byte for byte", async () => {
    const zip = new ZipStore(http(""), "data.zip");
    await zip.open();
    // Three faults: the store's range reads of one archive asked for together share a
    // request (HttpStore coalescing), so all of them may land on one request's 4 attempts.
    server.behaviour = { reset: 2, short: 1 };
    const dst = new MemoryStore();
    const result = await copy(zip, dst, { concurrency: 4 });
    expect(result.copied).toBe(source.map.size);
    expect(dst.keys()).toEqual(source.keys());
    for (const [key, value] of source.map) expect(same(dst.map.get(key), value), key).toBe(true);
    expect(server.behaviour.reset).toBe(0);
    expect(server.behaviour.short).toBe(0);
  });

  for (const fault of ["reset", "short"] as const) {
    it(`gives STORE_FAILED after the retries when every response is ${fault === "reset" ? "reset mid-body" : "cut short"}, and writes nothing partial`, async () => {
      const zip = new ZipStore(http(""), "data.zip");
      await zip.open();
      const dir = mkdtempSync(join(root, "dst-"));
      const dst = new FileSystemStore(dir);
      const error = await copy(zip, dst, {
        concurrency: 2,
        onProgress: ({ done }) => {
          if (done === 5) server.behaviour = { [fault]: 1_000_000 };
        },
      }).catch((e) => e);
      expect(error.code).toBe("STORE_FAILED");
      expect(error.message).toMatch(/4 attempts/);
      const copied = await expectNothingPartial(dst);
      expect(copied).toBeGreaterThanOrEqual(5);
      expect(copied).toBeLessThan(source.map.size);
      expect(readdirSync(dir, { recursive: true }).map(String).filter((f) => f.includes("zarr-tmp"))).toEqual([]);
    });
  }

  it("an interrupted copy (abort after N keys) leaves every destination key complete or absent", async () => {
    server.behaviour = { latency: 5 };
    const zip = new ZipStore(http(""), "data.zip");
    const dst = new FileSystemStore(mkdtempSync(join(root, "dst-")));
    const controller = new AbortController();
    const error = await copy(zip, dst, {
      concurrency: 6,
      signal: controller.signal,
      onProgress: ({ done }) => done === 7 && controller.abort(),
    }).catch((e) => e);
    expect(error.code).toBe("ABORTED");
    const copied = await expectNothingPartial(dst);
    expect(copied).toBeGreaterThanOrEqual(7);
    expect(copied).toBeLessThan(source.map.size);
  });
});
