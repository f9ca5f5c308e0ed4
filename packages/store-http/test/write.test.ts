import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { HttpStore } from "../src/index.js";
import { pattern, rejectsWith, type Served, serveFixtures } from "./fixtures.js";

let served: Served;
beforeAll(async () => {
  served = await serveFixtures();
});
afterAll(() => served.close());
beforeEach(() => served.server.reset());

const writable = () => new HttpStore(served.server.url, { readOnly: false, retryDelay: 1 });
const onDisk = (key: string) => path.join(served.dir, ...key.split("/"));

describe("readOnly: false", () => {
  it("writes with PUT and deletes with DELETE", async () => {
    served.server.behaviour = { writable: true };
    const s = writable();
    const value = pattern(5000, 99);
    await s.set("new/dir/chunk #1", value);
    expect(new Uint8Array(fs.readFileSync(onDisk("new/dir/chunk #1")))).toEqual(value);
    expect(await s.get("new/dir/chunk #1")).toEqual(value);
    const put = served.server.requests[0];
    expect(put.method).toBe("PUT");
    expect(put.url).toBe("/new/dir/chunk%20%231");
    expect(put.headers["content-type"]).toBe("application/octet-stream");
    expect(put.headers["content-length"]).toBe("5000");

    await s.set("new/dir/chunk #1", value.subarray(10, 20)); // a view: only its bytes are sent
    expect(await s.get("new/dir/chunk #1")).toEqual(value.slice(10, 20));

    await s.delete("new/dir/chunk #1");
    expect(fs.existsSync(onDisk("new/dir/chunk #1"))).toBe(false);
    expect(await s.get("new/dir/chunk #1")).toBeUndefined();
    await s.delete("new/dir/chunk #1"); // 404 on delete is fine
    expect(served.server.requests.map((r) => r.method)).toEqual(["PUT", "GET", "PUT", "GET", "DELETE", "GET", "DELETE"]);
  });

  it("retries a PUT after a 503", async () => {
    served.server.behaviour = { writable: true, fail: { status: 503, times: 1 } };
    await writable().set("retried", pattern(10));
    expect(served.server.requests.map((r) => r.method)).toEqual(["PUT", "PUT"]);
    expect(new Uint8Array(fs.readFileSync(onDisk("retried")))).toEqual(pattern(10));
  });

  it("fails with STORE_FAILED when the server refuses writes", async () => {
    const error = await rejectsWith(writable().set("refused", pattern(3)), "STORE_FAILED");
    expect(error.message).toContain("HTTP 405");
    await rejectsWith(writable().delete("a.bin"), "STORE_FAILED");
    expect(fs.existsSync(onDisk("a.bin"))).toBe(true);
  });

  it("rejects bad keys and values before sending anything", async () => {
    await rejectsWith(writable().set("../escape", pattern(3)), "KEY_INVALID");
    await rejectsWith(writable().set("x", [1, 2] as unknown as Uint8Array), "INVALID_ARGUMENT");
    await rejectsWith(writable().delete("a//b"), "KEY_INVALID");
    expect(served.server.requests).toEqual([]);
  });
});

describe("read-only (the default)", () => {
  it("refuses set and delete with STORE_READ_ONLY without a request", async () => {
    served.server.behaviour = { writable: true };
    const s = new HttpStore(served.server.url);
    expect(s.readOnly).toBe(true);
    await rejectsWith(s.set("x", pattern(3)), "STORE_READ_ONLY");
    await rejectsWith(s.delete("a.bin"), "STORE_READ_ONLY");
    expect(served.server.requests).toEqual([]);
    expect(fs.existsSync(onDisk("a.bin"))).toBe(true);
  });
});
