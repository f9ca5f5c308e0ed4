/**
 * HttpStore.setIfVersion against a real node:http server that keeps objects in memory and
 * honours `If-Match` / `If-None-Match: *` on PUT (RFC 9110 §13.1): the conditions, the 412
 * → STORE_CHANGED mapping, and core's locked read-modify-write over it (two stores writing
 * one chunk lose nothing).
 */
import { createHash } from "node:crypto";
import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createArray, get, openArray, set } from "@zarr/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpStore } from "../src/index.js";

const objects = new Map<string, Buffer>();
let refused = 0;
const etagOf = (b: Buffer) => `"${createHash("sha1").update(b).digest("hex")}"`;

const server = http.createServer((req, res) => {
  const key = decodeURIComponent((req.url ?? "/").slice(1));
  const current = objects.get(key);
  if (req.method === "GET" || req.method === "HEAD") {
    if (current === undefined) return res.writeHead(404).end();
    const ifMatch = req.headers["if-match"];
    if (ifMatch !== undefined && ifMatch !== etagOf(current)) return res.writeHead(412).end();
    res.writeHead(200, { ETag: etagOf(current), "Content-Length": current.length });
    return res.end(req.method === "HEAD" ? undefined : current);
  }
  if (req.method === "PUT") {
    const parts: Buffer[] = [];
    req.on("data", (d: Buffer) => parts.push(d));
    req.on("end", () => {
      const ifMatch = req.headers["if-match"];
      const ifNoneMatch = req.headers["if-none-match"];
      const latest = objects.get(key); // checked when the body is in, as one step with the write
      if ((ifMatch !== undefined && (latest === undefined || ifMatch !== etagOf(latest))) || (ifNoneMatch === "*" && latest !== undefined)) {
        refused++;
        return res.writeHead(412).end();
      }
      objects.set(key, Buffer.concat(parts));
      res.writeHead(201).end();
    });
    return;
  }
  if (req.method === "DELETE") {
    objects.delete(key);
    return res.writeHead(204).end();
  }
  res.writeHead(405).end();
});

let base: string;
beforeAll(async () => {
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe("HttpStore.setIfVersion", () => {
  it("writes only over the version read, or only where nothing is, else STORE_CHANGED", async () => {
    const store = new HttpStore(base, { readOnly: false });
    await store.setIfVersion("k", new Uint8Array([1]), null);
    await expect(store.setIfVersion("k", new Uint8Array([2]), null)).rejects.toMatchObject({ code: "STORE_CHANGED" });
    const v = await store.getVersioned("k", undefined);
    expect(v?.version).toBe(etagOf(Buffer.from([1])));
    await store.setIfVersion("k", new Uint8Array([3]), v?.version as string);
    await expect(store.setIfVersion("k", new Uint8Array([4]), v?.version as string)).rejects.toMatchObject({ code: "STORE_CHANGED" });
    expect(Array.from((await store.get("k")) as Uint8Array)).toEqual([3]);
  });

  it("is refused on a read-only store", async () => {
    await expect(new HttpStore(base).setIfVersion("k", new Uint8Array([1]), null)).rejects.toMatchObject({ code: "STORE_READ_ONLY" });
  });

  it("lets core's set({ lock: true }) retry conflicting read-modify-writes: two stores on one chunk lose nothing", async () => {
    const n = 60;
    const a = new HttpStore(`${base}arr/`, { readOnly: false });
    const b = new HttpStore(`${base}arr/`, { readOnly: false });
    await createArray(a, "x", { shape: [n], chunkShape: [n], dataType: "int32", codecs: ["bytes"] });
    const writers = [await openArray(a, "x"), await openArray(b, "x")];
    const before = refused;
    await Promise.all(Array.from({ length: n }, (_, i) => set(writers[i % 2], [i], i + 1, { lock: true })));
    const data = (await get(writers[0], null)).data as Int32Array;
    expect(Array.from(data)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    expect(refused).toBeGreaterThan(before); // the two stores did collide, and the conflicts were retried
  });
});
