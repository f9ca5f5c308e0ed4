/**
 * Conditional writes (`setIfVersion`: PutObject with If-Match / If-None-Match) and the
 * optimistic `set(…, { lock: true })` of @zarr/core built on them. s3rver ignores the
 * conditions (checked below), so the conditional bucket is answered by the test's own
 * small S3 object server on the same HTTP server (GET with Range and If-Match, PUT with
 * If-Match and If-None-Match, checked and applied in one step), through the real SDK.
 */
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createArray, get, MemoryStore, openArray, set } from "@zarr/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bytesOf, rejection, startS3, type TestS3 } from "./helpers.js";

let s3: TestS3;
beforeAll(async () => {
  s3 = await startS3(["plain", "cond"]);
});
afterAll(() => s3.close());

/** The conditional bucket: objects with ETags; counts the writes refused by a condition. */
const objects = new Map<string, { bytes: Buffer; etag: string }>();
const refused = { count: 0 };

function reply(res: ServerResponse, status: number, headers: Record<string, string | number> = {}, body?: Buffer | string): void {
  res.writeHead(status, headers);
  res.end(body);
}

function s3Error(res: ServerResponse, status: number, code: string): void {
  reply(res, status, { "content-type": "application/xml" }, `<?xml version="1.0"?><Error><Code>${code}</Code><Message>${code}</Message></Error>`);
}

function answerConditional(req: IncomingMessage, res: ServerResponse): boolean {
  const url = new URL(req.url ?? "/", "http://x");
  if (!url.pathname.startsWith("/cond/")) return false;
  const key = decodeURIComponent(url.pathname.slice("/cond/".length));
  const chunks: Buffer[] = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const current = objects.get(key);
    const ifMatch = req.headers["if-match"];
    const ifNoneMatch = req.headers["if-none-match"];
    if (req.method === "PUT") {
      // Check and write in one step: nothing is awaited in between.
      const failed = (ifNoneMatch === "*" && current !== undefined) || (ifMatch !== undefined && current?.etag !== ifMatch);
      if (failed) {
        refused.count++;
        return s3Error(res, 412, "PreconditionFailed");
      }
      const bytes = Buffer.concat(chunks);
      const etag = `"${createHash("md5").update(bytes).update(String(Math.random())).digest("hex")}"`;
      objects.set(key, { bytes, etag });
      return reply(res, 200, { etag });
    }
    if (req.method === "GET" || req.method === "HEAD") {
      if (current === undefined) return s3Error(res, 404, "NoSuchKey");
      if (ifMatch !== undefined && ifMatch !== current.etag) return s3Error(res, 412, "PreconditionFailed");
      const size = current.bytes.length;
      const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? "");
      let [from, to] = [0, size];
      if (range !== null) {
        if (range[1] === "") from = Math.max(0, size - Number(range[2]));
        else [from, to] = [Number(range[1]), range[2] === "" ? size : Math.min(size, Number(range[2]) + 1)];
      }
      const body = current.bytes.subarray(from, to);
      const headers: Record<string, string | number> = { etag: current.etag, "content-length": body.length, "content-type": "application/octet-stream" };
      if (range !== null) headers["content-range"] = `bytes ${from}-${to - 1}/${size}`;
      return reply(res, range === null ? 200 : 206, headers, req.method === "HEAD" ? undefined : body);
    }
    s3Error(res, 501, "NotImplemented");
  });
  return true;
}

describe("S3Store.setIfVersion", () => {
  it("s3rver ignores the conditions (why the conditional bucket has its own server)", async () => {
    const store = s3.store({ bucket: "plain" });
    await store.set("k", bytesOf(4));
    // With conditions honoured this would reject: the object exists.
    const outcome = await store.setIfVersion("k", bytesOf(4, 1), null).then(() => "written", (e) => e.code);
    console.log("s3rver with If-None-Match: * on an existing object:", outcome);
    expect(outcome).toBe("written");
  });

  it("writes when the ETag still matches or the object is absent; STORE_CHANGED otherwise, writing nothing", async () => {
    s3.intercept = answerConditional;
    const store = s3.store({ bucket: "cond", maxAttempts: 1 });
    await store.setIfVersion("a", bytesOf(8), null); // absent: created
    const first = await store.getVersioned("a", undefined);
    expect(first?.version).toMatch(/^"[0-9a-f]+"$/);
    const again = await rejection(store.setIfVersion("a", bytesOf(8, 1), null)); // exists now
    expect(again.code).toBe("STORE_CHANGED");
    await store.setIfVersion("a", bytesOf(8, 2), first?.version as string); // still that version
    const stale = await rejection(store.setIfVersion("a", bytesOf(8, 3), first?.version as string));
    expect(stale.code).toBe("STORE_CHANGED");
    expect(stale.key).toBe("a");
    expect((await store.get("a"))?.[0]).toBe(bytesOf(8, 2)[0]);
    await expect(s3.store({ bucket: "cond", readOnly: true }).setIfVersion("a", bytesOf(1), null)).rejects.toMatchObject({ code: "STORE_READ_ONLY" });
  });

  it("set with lock: true from two stores on one chunk loses nothing: conflicting writes are retried", async () => {
    s3.intercept = answerConditional;
    const n = 60;
    // Metadata made elsewhere, then put in place.
    const staging = new MemoryStore();
    await createArray(staging, "raw", { shape: [n], chunkShape: [n], dataType: "int32" });
    for (const key of staging.keys()) objects.set(key, { bytes: Buffer.from(staging.map.get(key) as Uint8Array), etag: `"${key}"` });
    const before = refused.count;
    // Two store objects: two writers that do not share an in-process queue (as two processes).
    const opened = await Promise.all([0, 1].map(() => openArray(s3.store({ bucket: "cond" }), "raw")));
    await Promise.all(Array.from({ length: n }, (_, i) => set(opened[i % 2], [i], i + 1, { lock: true })));
    const data = (await get(opened[0])).data as Int32Array;
    const lost = data.reduce((count, v, i) => (v === i + 1 ? count : count + 1), 0);
    console.log(`lost ${lost}, conditional writes refused and retried: ${refused.count - before}`);
    expect(lost).toBe(0);
    expect(refused.count - before).toBeGreaterThan(0);
  }, 60_000);
});
