/**
 * Range reads of one key issued in the same turn are merged into one request (bounded gap
 * and size), against the real test server: what map tiles reading one shard need.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { HttpStore } from "../src/index.js";
import { FILES, rejectsWith, type Served, serveFixtures } from "./fixtures.js";

let served: Served;
beforeAll(async () => {
  served = await serveFixtures();
});
afterAll(() => served.close());
beforeEach(() => served.server.reset());

const A = FILES["a.bin"]; // 1000 bytes
const ranges = () => served.server.requests.map((r) => r.headers.range);

describe("coalescing range reads", () => {
  it("merges neighbouring ranges asked for together into one request, each caller getting its own bytes", async () => {
    const s = new HttpStore(served.server.url, { coalesce: { gap: 16 } });
    const asks = [
      { offset: 100, length: 10 },
      { offset: 0, length: 50 },
      { offset: 60, length: 30 }, // 10 bytes after the previous: within the gap
      { offset: 300, length: 5 }, // far away: a request of its own
      { offset: 0, length: 50 }, // the same range twice: read once
    ];
    const got = await Promise.all(asks.map((r) => s.getRange("a.bin", r)));
    for (const [i, bytes] of got.entries()) expect(bytes).toEqual(A.slice(asks[i].offset, asks[i].offset + asks[i].length));
    expect(ranges().sort()).toEqual(["bytes=0-109", "bytes=300-304"]);
  });

  it("reads the suffixes of one key asked for together once (every tile reading the same shard index)", async () => {
    const s = new HttpStore(served.server.url);
    const got = await Promise.all([16, 16, 40, 16].map((n) => s.getRange("a.bin", { suffixLength: n })));
    expect(got.map((b) => b?.length)).toEqual([16, 16, 40, 16]);
    expect(got[2]).toEqual(A.slice(-40));
    expect(ranges()).toEqual(["bytes=-40"]);
  });

  it("keeps the gap and size bounds: a gap one byte too wide, or a merge past maxBytes, makes two requests", async () => {
    const gap = new HttpStore(served.server.url, { coalesce: { gap: 10 } });
    await Promise.all([gap.getRange("a.bin", { offset: 0, length: 10 }), gap.getRange("a.bin", { offset: 20, length: 10 })]);
    expect(ranges()).toHaveLength(1); // 10 bytes apart: merged
    served.server.reset();
    await Promise.all([gap.getRange("a.bin", { offset: 0, length: 10 }), gap.getRange("a.bin", { offset: 21, length: 10 })]);
    expect(ranges().sort()).toEqual(["bytes=0-9", "bytes=21-30"]);
    served.server.reset();
    const small = new HttpStore(served.server.url, { coalesce: { gap: 100, maxBytes: 30 } });
    await Promise.all([small.getRange("a.bin", { offset: 0, length: 10 }), small.getRange("a.bin", { offset: 20, length: 10 })]);
    expect(ranges()).toEqual(["bytes=0-29"]); // exactly maxBytes
    served.server.reset();
    await Promise.all([small.getRange("a.bin", { offset: 0, length: 10 }), small.getRange("a.bin", { offset: 21, length: 10 })]);
    expect(ranges().sort()).toEqual(["bytes=0-9", "bytes=21-30"]);
  });

  it("never merges across keys, suffix ranges or versions, and not at all with coalesce: false", async () => {
    const s = new HttpStore(served.server.url);
    await Promise.all([
      s.getRange("a.bin", { offset: 0, length: 10 }),
      s.getRange("dir/nested.bin", { offset: 10, length: 10 }),
      s.getRange("a.bin", { suffixLength: 10 }),
    ]);
    expect(served.server.requests).toHaveLength(3);
    served.server.reset();
    const off = new HttpStore(served.server.url, { coalesce: false });
    await Promise.all([off.getRange("a.bin", { offset: 0, length: 10 }), off.getRange("a.bin", { offset: 10, length: 10 })]);
    expect(ranges().sort()).toEqual(["bytes=0-9", "bytes=10-19"]);
  });

  it("clips at the end of the value like a single read, and gives undefined for a missing key", async () => {
    const s = new HttpStore(served.server.url);
    const [tail, past, missing] = await Promise.all([
      s.getRange("a.bin", { offset: 990, length: 20 }),
      s.getRange("a.bin", { offset: 1005, length: 5 }),
      s.getRange("nope.bin", { offset: 0, length: 5 }),
    ]);
    expect(tail).toEqual(A.slice(990));
    expect(past).toEqual(new Uint8Array(0));
    expect(missing).toBeUndefined();
    expect(served.server.requests).toHaveLength(2);
  });

  it("an abort rejects only its own read; the merged request goes on for the others", async () => {
    served.server.behaviour = { latency: 100 };
    const s = new HttpStore(served.server.url);
    const controller = new AbortController();
    const mine = s.getRange("a.bin", { offset: 0, length: 10 }, { signal: controller.signal });
    const theirs = s.getRange("a.bin", { offset: 10, length: 10 });
    setTimeout(() => controller.abort(), 20);
    await rejectsWith(mine, "ABORTED");
    expect(await theirs).toEqual(A.slice(10, 20));
    expect(served.server.requests).toHaveLength(1);
  });

  it("a failed merged request fails every read in it with the key named", async () => {
    served.server.behaviour = { fail: { status: 500, times: 10 } };
    const s = new HttpStore(served.server.url, { retries: 1, retryDelay: 1 });
    const reads = [s.getRange("a.bin", { offset: 0, length: 10 }), s.getRange("a.bin", { offset: 10, length: 10 })];
    for (const read of reads) expect((await rejectsWith(read, "STORE_FAILED")).message).toContain("a.bin");
    expect(served.server.requests).toHaveLength(2); // one request and its retry, for both reads
  });

  it("refuses a malformed coalesce option with INVALID_ARGUMENT naming it", async () => {
    const s = new HttpStore(served.server.url, { coalesce: { gap: -1 } });
    const error = await rejectsWith(s.getRange("a.bin", { offset: 0, length: 1 }), "INVALID_ARGUMENT");
    expect(error.message).toContain("coalesce");
  });
});
