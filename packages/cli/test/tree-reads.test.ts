/**
 * What `zarr tree` reads: each node's documents once, and no more. A wide hierarchy's
 * listing is made of these reads, so a second read of every group (or of the root) and a
 * check of every child directory for keys were most of its cost; over HTTP, a hierarchy
 * with consolidated metadata lists from its one document.
 */
import { once } from "node:events";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { consolidateMetadata, createArray, createGroup } from "@zarr/core";
import { FileSystemStore } from "@zarr/store-fs";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { removeTempDirs, runInProcess, tempDir } from "./helpers.js";

afterEach(() => vi.restoreAllMocks());
afterAll(removeTempDirs);

const GROUPS = 3;
const ARRAYS = 4;

/** A Zarr v2 hierarchy as zarr-python 2 writes it: GROUPS groups of ARRAYS arrays, one chunk each. */
function v2Hierarchy(): string {
  const root = path.join(tempDir(), "h.zarr");
  const doc = (dir: string, name: string, value: object) => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, name), JSON.stringify(value, null, 4));
  };
  doc(root, ".zgroup", { zarr_format: 2 });
  for (let g = 0; g < GROUPS; g++) {
    doc(path.join(root, `g${g}`), ".zgroup", { zarr_format: 2 });
    for (let a = 0; a < ARRAYS; a++) {
      const dir = path.join(root, `g${g}`, `a${a}`);
      doc(dir, ".zarray", { chunks: [4], compressor: null, dtype: "<i2", fill_value: 0, filters: null, order: "C", shape: [4], zarr_format: 2 });
      writeFileSync(path.join(dir, "0"), new Uint8Array(8));
    }
  }
  // A directory left empty by deletes is no node: the listing must still skip it.
  mkdirSync(path.join(root, "g0", "emptied"));
  return root;
}

describe("zarr tree of a Zarr v2 hierarchy reads each document once", () => {
  it("every .zarray and .zgroup once, no group twice, and child directories are not opened by the listing", async () => {
    const root = v2Hierarchy();
    const gets = vi.spyOn(FileSystemStore.prototype, "get");
    const lists = vi.spyOn(FileSystemStore.prototype, "listDir");
    const r = await runInProcess("tree", root);
    expect(r.err).toBe("");
    expect(r.out.trim().split("\n")).toHaveLength(1 + GROUPS * (1 + ARRAYS));
    expect(r.out).not.toContain("emptied");
    const reads = new Map<string, number>();
    for (const [key] of gets.mock.calls) reads.set(key, (reads.get(key) ?? 0) + 1);
    const twice = [...reads].filter(([, n]) => n > 1).map(([key]) => key);
    expect(twice, "keys read more than once").toEqual([]);
    for (let g = 0; g < GROUPS; g++) {
      expect(reads.get(`g${g}/.zgroup`)).toBe(1);
      for (let a = 0; a < ARRAYS; a++) expect(reads.get(`g${g}/a${a}/.zarray`)).toBe(1);
    }
    // Per node (and the emptied directory): its v2 documents (.zarray, .zgroup, .zattrs),
    // plus the root's zarr.json and .zmetadata probes.
    const nodes = 1 + GROUPS * (1 + ARRAYS);
    expect(gets.mock.calls.length).toBeLessThanOrEqual(3 * (nodes + 1) + 2);
    // One listing per group, each asking the store not to check children the listing reads anyway.
    expect(lists).toHaveBeenCalledTimes(1 + GROUPS);
    for (const [, options] of lists.mock.calls) expect(options).toMatchObject({ uncheckedPrefixes: true });
  });
});

/** Serves `dir` read-only over HTTP, recording each request's path. */
async function serve(dir: string): Promise<{ url: string; requests: string[]; close: () => void }> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? "", "http://x").pathname);
    requests.push(pathname);
    let bytes: Buffer;
    try {
      bytes = readFileSync(path.join(dir, pathname));
    } catch {
      return res.writeHead(404).end();
    }
    res.writeHead(200, { "content-length": bytes.length }).end(req.method === "HEAD" ? undefined : bytes);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const close = () => {
    server.closeAllConnections();
    server.close();
  };
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, close };
}

describe("zarr tree over HTTP with consolidated metadata", () => {
  it("takes exactly one request (Zarr v3: the root zarr.json holds the hierarchy)", async () => {
    const dir = tempDir();
    const store = new FileSystemStore(path.join(dir, "h.zarr"));
    await createGroup(store, "");
    for (let g = 0; g < GROUPS; g++) {
      await createGroup(store, `g${g}`);
      for (let a = 0; a < ARRAYS; a++) await createArray(store, `g${g}/a${a}`, { shape: [4], chunkShape: [4], dataType: "int16" });
    }
    await consolidateMetadata(store);
    const server = await serve(dir);
    try {
      const r = await runInProcess("tree", `${server.url}/h.zarr`);
      expect(r.err).toBe("");
      expect(r.out.trim().split("\n")).toHaveLength(1 + GROUPS * (1 + ARRAYS));
      expect(server.requests).toEqual(["/h.zarr/zarr.json"]);
      // --json lists the same way.
      server.requests.length = 0;
      expect((await runInProcess("tree", `${server.url}/h.zarr`, "--json")).err).toBe("");
      expect(server.requests).toEqual(["/h.zarr/zarr.json"]);
    } finally {
      server.close();
    }
  });
});
