/**
 * Bounded reads and versioned reads against s3rver (real SDK, real server). What s3rver
 * cannot do itself (ignore `Range`, honour `If-Match` on GET with a 412) is answered by
 * the test's own handler in front of it, on the same HTTP server, through the same SDK.
 */
import type { ServerResponse } from "node:http";
import { supportsVersions } from "@zarr/spec";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { S3Store } from "../src/index.js";
import { bytesOf, rejection, startS3, type TestS3 } from "./helpers.js";

const MiB = 1024 * 1024;
let s3: TestS3;
let store: S3Store;
beforeAll(async () => {
  s3 = await startS3(["bounded"]);
  store = s3.store({ bucket: "bounded", prefix: "z", maxAttempts: 1 });
  await store.set("zarr.json", bytesOf(2 * MiB));
  await store.set("c/0", bytesOf(2 * MiB, 1));
  await store.set("shard", bytesOf(1000, 2));
});
afterAll(() => s3.close());
beforeEach(() => s3.reset());

const isGetOf = (url: string | undefined, key: string) => (url ?? "").split("?")[0] === `/bounded/z/${key}`;

/** Answers with `size` bytes (byte i is i % 251) and status 200, ignoring Range, counting what it managed to send. */
function sendWhole(res: ServerResponse, size: number, sent: { bytes: number }): void {
  res.writeHead(200, { "content-length": size, etag: '"whole"', "content-type": "application/octet-stream" });
  res.on("error", () => {});
  const pump = () => {
    while (sent.bytes < size && !res.destroyed) {
      const at = sent.bytes;
      const chunk = Buffer.allocUnsafe(Math.min(65536, size - at));
      for (let i = 0; i < chunk.length; i++) chunk[i] = (at + i) % 251;
      sent.bytes += chunk.length;
      if (!res.write(chunk)) {
        res.once("drain", pump);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  pump();
}

describe("size caps", () => {
  it("a metadata document above maxMetadataBytes fails with STORE_TOO_LARGE; other keys use maxValueBytes", async () => {
    const capped = s3.store({ bucket: "bounded", prefix: "z", maxAttempts: 1, maxMetadataBytes: MiB });
    const error = await rejection(capped.get("zarr.json"));
    expect(error.code).toBe("STORE_TOO_LARGE");
    expect(error.message).toContain(`${MiB} bytes`);
    expect((await capped.get("c/0"))?.length).toBe(2 * MiB); // not metadata: the 2 GiB default applies
    const small = s3.store({ bucket: "bounded", prefix: "z", maxAttempts: 1, maxValueBytes: MiB });
    expect((await rejection(small.get("c/0"))).code).toBe("STORE_TOO_LARGE");
    expect((await small.get("zarr.json"))?.length).toBe(2 * MiB); // metadata: 64 MiB default
  });

  it("refuses caps that are not positive integers", () => {
    expect(() => s3.store({ bucket: "bounded", maxMetadataBytes: 0 })).toThrow(/maxMetadataBytes/);
    expect(() => s3.store({ bucket: "bounded", maxValueBytes: 1.5 })).toThrow(/maxValueBytes/);
  });

  it("s3rver respects Range: a range read transfers only the range", async () => {
    expect(await store.getRange("c/0", { offset: 1000, length: 10 })).toEqual(bytesOf(2 * MiB, 1).slice(1000, 1010));
    expect(s3.seen.map((r) => r.range)).toEqual(["bytes=1000-1009"]);
  });
});

describe("a server that ignores Range (200 with the whole object)", () => {
  const SIZE = 512 * MiB;
  const generated = (from: number, n: number) => Uint8Array.from({ length: n }, (_, i) => (from + i) % 251);

  it("a range read stops once its bytes are in hand", async () => {
    const sent = { bytes: 0 };
    s3.intercept = (req, res) => {
      if (!isGetOf(req.url, "huge")) return false;
      sendWhole(res, SIZE, sent);
      return true;
    };
    const before = process.memoryUsage().rss;
    expect(await store.getRange("huge", { offset: 70_000, length: 100 })).toEqual(generated(70_000, 100));
    expect(sent.bytes).toBeLessThan(32 * MiB);
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * MiB);
  });

  it("a suffix range keeps only the last bytes; maxValueBytes bounds what streams past", async () => {
    s3.intercept = (req, res) => {
      if (!isGetOf(req.url, "mid")) return false;
      sendWhole(res, 8 * MiB, { bytes: 0 });
      return true;
    };
    expect(await store.getRange("mid", { suffixLength: 7 })).toEqual(generated(8 * MiB - 7, 7));
    const small = s3.store({ bucket: "bounded", prefix: "z", maxAttempts: 1, maxValueBytes: MiB });
    expect((await rejection(small.getRange("mid", { suffixLength: 7 }))).code).toBe("STORE_TOO_LARGE");
  });
});

describe("versioned reads (ETag)", () => {
  it("reads with s3rver's ETag as the version, and sends If-Match", async () => {
    expect(supportsVersions(store)).toBe(true);
    const ifMatch: (string | undefined)[] = [];
    const first = await store.getVersioned("shard", { suffixLength: 16 });
    expect(first?.bytes).toEqual(bytesOf(1000, 2).slice(984));
    expect(first?.version).toMatch(/^"[0-9a-f]{32}"$/);
    s3.intercept = (req) => {
      ifMatch.push(req.headers["if-match"]);
      return false;
    };
    const again = await store.getVersioned("shard", { offset: 0, length: 16 }, { ifVersion: first?.version });
    expect(again).toEqual({ bytes: bytesOf(1000, 2).slice(0, 16), version: first?.version });
    expect(ifMatch).toEqual([first?.version]);
  });

  it("an object replaced since: STORE_CHANGED from the ETag of the answer (s3rver ignores If-Match on GET)", async () => {
    await store.set("moving", bytesOf(100, 1));
    const first = await store.getVersioned("moving", { suffixLength: 4 });
    await store.set("moving", bytesOf(100, 2));
    const error = await rejection(store.getVersioned("moving", { offset: 0, length: 4 }, { ifVersion: first?.version }));
    expect(error.code).toBe("STORE_CHANGED");
    expect(error.key).toBe("moving");
  });

  it("a 412 PreconditionFailed answer (as S3 sends for If-Match) is STORE_CHANGED", async () => {
    s3.intercept = (req, res) => {
      if (req.headers["if-match"] === undefined) return false;
      const body = '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>PreconditionFailed</Code><Message>At least one of the pre-conditions you specified did not hold</Message></Error>';
      res.writeHead(412, { "content-type": "application/xml", "content-length": Buffer.byteLength(body) }).end(body);
      return true;
    };
    const error = await rejection(store.getVersioned("shard", { offset: 0, length: 4 }, { ifVersion: '"0123"' }));
    expect(error.code).toBe("STORE_CHANGED");
  });

  it("a missing object resolves undefined", async () => {
    expect(await store.getVersioned("nothing", { suffixLength: 4 }, { ifVersion: '"x"' })).toBeUndefined();
  });
});
