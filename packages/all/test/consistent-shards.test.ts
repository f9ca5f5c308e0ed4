/**
 * Sharded reads while another writer replaces the shard: every read returns the data of
 * one whole version of the shard (old or new), or fails with `STORE_CHANGED`, never
 * another inner chunk's bytes. File store (a rewrite injected between the index read and
 * the data read, and a child process rewriting the shard in a loop), HTTP (a real server
 * whose object changes between requests, with ETags and If-Match).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import {
  type ByteRange,
  createArray,
  get,
  MemoryStore,
  openArray,
  type Store,
  set,
  slice,
  type VersionedReadOptions,
  ZarrError,
} from "@zarr/core";
import { FileSystemStore } from "@zarr/store-fs";
import { HttpStore } from "@zarr/store-http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registry } from "../src/index.js";

const SHARD = "a/c/0";
const N = 256;
const INNER = 8;

/** Version A: element i is i. Version B: inner chunk 0 all fill (so empty: every other inner chunk moved), the rest i + 100 000. */
const A = Int32Array.from({ length: N }, (_, i) => i);
const B = Int32Array.from({ length: N }, (_, i) => (i < INNER ? 0 : i + 100_000));

async function writeArray(store: Store, data: Int32Array): Promise<void> {
  const arr = await createArray(store, "a", {
    shape: [N],
    dataType: "int32",
    chunkShape: [N],
    registry,
    codecs: [{ name: "sharding_indexed", configuration: { chunk_shape: [INNER], codecs: [{ name: "bytes", configuration: { endian: "little" } }] } }],
  });
  await set(arr, null, data);
}

let metadata: Uint8Array;
let shardA: Uint8Array;
let shardB: Uint8Array;
const dirs: string[] = [];

beforeAll(async () => {
  const a = new MemoryStore();
  await writeArray(a, A);
  const b = new MemoryStore();
  await writeArray(b, B);
  metadata = a.map.get("a/zarr.json") as Uint8Array;
  shardA = a.map.get(SHARD) as Uint8Array;
  shardB = b.map.get(SHARD) as Uint8Array;
});
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function tempStore(): FileSystemStore {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "zarr-consistent-"));
  dirs.push(dir);
  fs.mkdirSync(path.join(dir, "a", "c"), { recursive: true });
  fs.writeFileSync(path.join(dir, "a", "zarr.json"), metadata);
  fs.writeFileSync(path.join(dir, SHARD), shardA);
  return new FileSystemStore(dir);
}

/** Which version elements `from`.. (as many as `got` holds) come from: "A", "B", or "mixed" (wrong data). */
function versionOf(got: Int32Array, from: number): "A" | "B" | "mixed" {
  const same = (v: Int32Array) => got.every((x, i) => x === v[from + i]);
  if (same(A)) return "A";
  if (same(B)) return "B";
  return "mixed";
}

describe("file store", () => {
  it("a shard replaced between the index read and the inner chunk read gives the new data", async () => {
    const fsStore = tempStore();
    const reads: string[] = [];
    // The store as the array sees it: versioned reads go to the file store, and the
    // first one after the index read replaces the shard (as another process would).
    // A proxy, not a prototype copy: the store's private fields need the real receiver.
    const getVersioned = async (key: string, range: ByteRange | undefined, options?: VersionedReadOptions) => {
      const isIndex = range !== undefined && "suffixLength" in range;
      if (key === SHARD && !isIndex && reads.length === 1) await fsStore.set(SHARD, shardB);
      if (key === SHARD) reads.push(isIndex ? "index" : "data");
      return fsStore.getVersioned(key, range, options);
    };
    const store = new Proxy(fsStore, {
      get(target, prop) {
        if (prop === "workerStore") return undefined;
        if (prop === "getVersioned") return getVersioned;
        const value = Reflect.get(target, prop, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const arr = await openArray(store, "a", { registry });
    const got = (await get(arr, [slice(40, 48)])).data as Int32Array;
    expect(versionOf(got, 40)).toBe("B");
    expect(reads).toEqual(["index", "data", "index", "data"]);
  });

  it("a child process rewriting the shard in a loop: every read is one whole version or STORE_CHANGED", async () => {
    const store = tempStore();
    const target = path.join(store.root, SHARD);
    const a = path.join(store.root, "A.bin");
    const b = path.join(store.root, "B.bin");
    fs.writeFileSync(a, shardA);
    fs.writeFileSync(b, shardB);
    // Replaces the shard the way stores write (a new file renamed over it), about every
    // millisecond, alternating the two versions, until killed.
    const script = `
      const fs = require("node:fs");
      const [target, a, b] = process.argv.slice(1);
      const versions = [fs.readFileSync(a), fs.readFileSync(b)];
      const pause = new Int32Array(new SharedArrayBuffer(4));
      process.stdout.write("ready\\n");
      for (let i = 0; ; i++) {
        const tmp = target + ".tmp" + (i % 2);
        fs.writeFileSync(tmp, versions[i % 2]);
        fs.renameSync(tmp, target);
        Atomics.wait(pause, 0, 0, 1);
      }`;
    const child = spawn(process.execPath, ["-e", script, target, a, b], { stdio: ["ignore", "pipe", "inherit"] });
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.once("data", () => resolve());
        child.once("error", reject);
      });
      const outcomes = { A: 0, B: 0, changed: 0, mixed: 0 };
      let arr = await openArray(store, "a", { registry });
      for (let i = 0; i < 1500; i++) {
        if (i % 100 === 0) arr = await openArray(store, "a", { registry }); // a cold index cache now and then
        const from = (i * 37) % (N - 12);
        try {
          const got = (await get(arr, [slice(from, from + 12)])).data as Int32Array;
          outcomes[versionOf(got, from)]++;
        } catch (error) {
          if (!(error instanceof ZarrError) || error.code !== "STORE_CHANGED") throw error;
          outcomes.changed++;
        }
      }
      console.log("reads under a concurrent rewriter:", outcomes);
      expect(outcomes.mixed).toBe(0);
      expect(outcomes.A).toBeGreaterThan(0);
      expect(outcomes.B).toBeGreaterThan(0);
    } finally {
      child.kill("SIGKILL");
    }
  });
});

/**
 * A real HTTP server for one array whose shard the test replaces between requests. It
 * sends a strong ETag per version, answers ranges with 206 and `If-Match` mismatches with
 * 412 (unless `honourIfMatch` is off: then only the ETag in the answer tells).
 */
async function shardServer() {
  const state = {
    shard: shardA,
    etag: '"A"',
    honourIfMatch: true,
    requests: [] as { range?: string; ifMatch?: string; status: number }[],
    /** Runs before each shard request is answered. */
    before: undefined as ((n: number) => void) | undefined,
  };
  const server = http.createServer((req, res) => {
    const url = (req.url ?? "").slice(1);
    if (url === "a/zarr.json") {
      res.writeHead(200, { "content-length": metadata.length }).end(metadata);
      return;
    }
    if (url !== SHARD) {
      res.writeHead(404).end();
      return;
    }
    state.before?.(state.requests.length);
    const record = { range: req.headers.range, ifMatch: req.headers["if-match"], status: 200 };
    state.requests.push(record);
    if (record.ifMatch !== undefined && state.honourIfMatch && record.ifMatch !== state.etag) {
      record.status = 412;
      res.writeHead(412, { etag: state.etag }).end();
      return;
    }
    const size = state.shard.length;
    const m = /^bytes=(\d*)-(\d*)$/.exec(record.range ?? "");
    if (m === null) {
      res.writeHead(200, { etag: state.etag, "content-length": size }).end(state.shard);
      return;
    }
    const start = m[1] === "" ? size - Number(m[2]) : Number(m[1]);
    const end = m[1] === "" || m[2] === "" ? size - 1 : Math.min(size - 1, Number(m[2]));
    record.status = 206;
    res
      .writeHead(206, { etag: state.etag, "content-length": end - start + 1, "content-range": `bytes ${start}-${end}/${size}` })
      .end(state.shard.subarray(start, end + 1));
  });
  server.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const replace = () => {
    state.shard = state.shard === shardA ? shardB : shardA;
    state.etag = state.shard === shardA ? '"A"' : '"B"';
  };
  return { state, url, replace, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe("HTTP store", () => {
  for (const honourIfMatch of [true, false]) {
    it(`a shard replaced between the index read and the inner chunk read gives the new data (If-Match ${honourIfMatch ? "honoured: 412" : "ignored: ETag compared"})`, async () => {
      const s = await shardServer();
      try {
        s.state.honourIfMatch = honourIfMatch;
        s.state.before = (n) => {
          if (n === 1) s.replace(); // after the index read, before the inner chunk read
        };
        const arr = await openArray(new HttpStore(s.url, { retries: 0 }), "a", { registry });
        const got = (await get(arr, [slice(40, 48)])).data as Int32Array;
        expect(versionOf(got, 40)).toBe("B");
        const answered = honourIfMatch ? 412 : 206;
        expect(s.state.requests.map((r) => `${r.ifMatch ?? "-"} ${r.status}`)).toEqual(['- 206', `"A" ${answered}`, "- 206", '"B" 206']);
      } finally {
        await s.close();
      }
    });
  }

  it("a cached index whose shard changed is dropped: the next read gets the new data", async () => {
    const s = await shardServer();
    try {
      const arr = await openArray(new HttpStore(s.url, { retries: 0 }), "a", { registry });
      expect(versionOf((await get(arr, [slice(16, 24)])).data as Int32Array, 16)).toBe("A");
      s.replace();
      expect(versionOf((await get(arr, [slice(40, 48)])).data as Int32Array, 40)).toBe("B");
      expect(s.state.requests.map((r) => r.status)).toEqual([206, 206, 412, 206, 206]);
    } finally {
      await s.close();
    }
  });

  it("a shard replaced before every read fails with STORE_CHANGED after bounded retries", async () => {
    const s = await shardServer();
    try {
      s.state.before = (n) => {
        if (n % 2 === 1) s.replace(); // between every index read and its inner chunk read
      };
      const arr = await openArray(new HttpStore(s.url, { retries: 0 }), "a", { registry });
      const error = await get(arr, [slice(40, 48)]).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect((error as ZarrError).code).toBe("STORE_CHANGED");
      expect(s.state.requests).toHaveLength(8); // 4 attempts of index + inner chunk
    } finally {
      await s.close();
    }
  });
});
