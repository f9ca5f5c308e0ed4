/**
 * Versioned reads over HTTP: the ETag is the version; `ifVersion` sends `If-Match`, and
 * a 412 (or, from a server that ignores `If-Match`, another ETag) is `STORE_CHANGED`.
 */
import { supportsVersions } from "@zarr/spec";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { HttpStore } from "../src/index.js";
import { pattern, rejectsWith } from "./fixtures.js";
import { type HostileServer, startHostileServer } from "./hostile-server.js";

let server: HostileServer;
beforeAll(async () => {
  server = await startHostileServer(Buffer.alloc(0));
});
afterAll(() => server.close());

const V1 = pattern(100, 1);
const V2 = pattern(100, 2);
beforeEach(() => {
  server.sent.length = 0;
  server.changing = { body: V1, etag: '"v1"', honourIfMatch: true, weak: false, noEtag: false };
});

const store = () => new HttpStore(server.url, { retries: 2, retryDelay: 1 });

describe("getVersioned", () => {
  it("reads a range or the whole value with its ETag, and sends If-Match for ifVersion", async () => {
    const s = store();
    expect(supportsVersions(s)).toBe(true);
    expect(await s.getVersioned("changing/x", { suffixLength: 10 })).toEqual({ bytes: V1.slice(90), version: '"v1"' });
    expect(await s.getVersioned("changing/x", undefined, { ifVersion: '"v1"' })).toEqual({ bytes: V1, version: '"v1"' });
    expect(await s.getVersioned("changing/x", { offset: 10, length: 5 }, { ifVersion: '"v1"' })).toEqual({
      bytes: V1.slice(10, 15),
      version: '"v1"',
    });
    expect(server.sent.map((r) => r.ifMatch)).toEqual([undefined, '"v1"', '"v1"']);
    expect(await s.getVersioned("missing", { suffixLength: 1 }, { ifVersion: '"v1"' })).toBeUndefined();
  });

  it("a value changed since (412) is STORE_CHANGED at once, not retried", async () => {
    const s = store();
    const first = await s.getVersioned("changing/x", { suffixLength: 10 });
    server.changing.body = V2;
    server.changing.etag = '"v2"';
    const error = await rejectsWith(s.getVersioned("changing/x", { offset: 0, length: 10 }, { ifVersion: first?.version }), "STORE_CHANGED");
    expect(error.key).toBe("changing/x");
    expect(error.message).toContain('expected version "\\"v1\\""');
    expect(server.sent.map((r) => r.status)).toEqual([206, 412]);
  });

  it("a server that ignores If-Match: another ETag in the answer is STORE_CHANGED too", async () => {
    server.changing.honourIfMatch = false;
    const s = store();
    await s.getVersioned("changing/x", { suffixLength: 10 });
    server.changing.body = V2;
    server.changing.etag = '"v2"';
    await rejectsWith(s.getVersioned("changing/x", { offset: 0, length: 10 }, { ifVersion: '"v1"' }), "STORE_CHANGED");
    expect(server.sent.map((r) => r.status)).toEqual([206, 206]);
  });

  it("weak or missing ETags give no version (the reads are not checked)", async () => {
    server.changing.weak = true;
    expect((await store().getVersioned("changing/x", { suffixLength: 4 }))?.version).toBeUndefined();
    server.changing.weak = false;
    server.changing.noEtag = true;
    expect(await store().getVersioned("changing/x", { suffixLength: 4 })).toEqual({ bytes: V1.slice(96), version: undefined });
  });

  it("get and getRange send no If-Match", async () => {
    await store().get("changing/x");
    await store().getRange("changing/x", { offset: 1, length: 2 });
    expect(server.sent.map((r) => r.ifMatch)).toEqual([undefined, undefined]);
  });
});
