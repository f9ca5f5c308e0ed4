/**
 * Bounded reads against a real misbehaving server: an endless `zarr.json`, a large
 * object sent whole whatever `Range` says, gzip bombs. Every read fails with
 * `STORE_TOO_LARGE` or gets exactly its bytes, reading no more than it needs, while the
 * process's memory (RSS, sampled during the read) grows by less than 64 MiB.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpStore, type HttpStoreOptions } from "../src/index.js";
import { rejectsWith } from "./fixtures.js";
import { generatedByte, gzipOfZeros, type HostileServer, startHostileServer } from "./hostile-server.js";

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

let server: HostileServer;
beforeAll(async () => {
  server = await startHostileServer(await gzipOfZeros(GiB));
}, 120_000);
afterAll(() => server.close());

const store = (options: HttpStoreOptions = {}) => new HttpStore(server.url, { retries: 0, ...options });

/** Runs `fn` and resolves the peak RSS growth during it (sampled every 2 ms) along with its outcome. */
async function peakGrowth<T>(fn: () => Promise<T>): Promise<{ growth: number; result: T | undefined; error: unknown }> {
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 2);
  let result: T | undefined;
  let error: unknown;
  try {
    result = await fn();
  } catch (e) {
    error = e;
  } finally {
    clearInterval(timer);
  }
  peak = Math.max(peak, process.memoryUsage().rss);
  return { growth: peak - base, result, error };
}

const generated = (from: number, length: number) => Uint8Array.from({ length }, (_, i) => generatedByte(from + i));
const sentFor = (path: string) => server.sent.filter((r) => r.path === path).reduce((n, r) => n + r.bytes, 0);

describe("metadata size cap", () => {
  it("an endless zarr.json fails with STORE_TOO_LARGE at maxMetadataBytes, with bounded memory", async () => {
    const { growth, error } = await peakGrowth(() => store({ maxMetadataBytes: 4 * MiB }).get("endless/zarr.json"));
    await rejectsWith(Promise.reject(error), "STORE_TOO_LARGE");
    expect((error as Error).message).toContain("4194304 bytes");
    expect((error as Error).message).toContain('"endless/zarr.json"');
    expect(growth).toBeLessThan(64 * MiB);
  });

  it("the default cap is 64 MiB", async () => {
    const error = await rejectsWith(store().get("endless/zarr.json"), "STORE_TOO_LARGE");
    expect(error.message).toContain(`${64 * MiB} bytes`);
  });

  it("other keys have their own cap, maxValueBytes", async () => {
    const error = await rejectsWith(store({ maxValueBytes: 2 * MiB, maxMetadataBytes: 1 }).get("endless/c/0"), "STORE_TOO_LARGE");
    expect(error.message).toContain(`${2 * MiB} bytes`);
  });

  it("an announced Content-Length above the cap fails before the body is read", async () => {
    server.sent.length = 0;
    const error = await rejectsWith(store({ maxValueBytes: 16 * MiB }).get(`big/${GiB}`), "STORE_TOO_LARGE");
    expect(error.message).toContain(`announced body of ${GiB} bytes`);
    expect(sentFor(`/big/${GiB}`)).toBeLessThan(16 * MiB);
  });

  it("refuses caps that are not positive integers", () => {
    for (const bad of [0, -1, 1.5, Number.NaN, "1"]) {
      expect(() => store({ maxMetadataBytes: bad as number })).toThrow(/maxMetadataBytes/);
      expect(() => store({ maxValueBytes: bad as number })).toThrow(/maxValueBytes/);
    }
  });
});

describe("a server that ignores Range", () => {
  for (const kind of ["big", "big-chunked"]) {
    it(`${kind}: a range of a 1 GiB object reads only up to the range's end`, async () => {
      server.sent.length = 0;
      const path = `${kind}/${GiB}`;
      const { growth, result, error } = await peakGrowth(() => store().getRange(path, { offset: 100_000, length: 4000 }));
      expect(error).toBeUndefined();
      expect(result).toEqual(generated(100_000, 4000));
      expect(sentFor(`/${path}`)).toBeLessThan(32 * MiB); // the server was cut off long before 1 GiB
      expect(growth).toBeLessThan(64 * MiB);
    });
  }

  it("a scatter read (readInto) of a 1 GiB object stops after its last range", async () => {
    server.sent.length = 0;
    const target = new Uint8Array(1000);
    const { growth, result } = await peakGrowth(() => store().readInto(`big/${GiB}`, [{ offset: 5000, target }]));
    expect(result).toBe(GiB); // the size, from Content-Length
    expect(target).toEqual(generated(5000, 1000));
    expect(sentFor(`/big/${GiB}`)).toBeLessThan(32 * MiB);
    expect(growth).toBeLessThan(64 * MiB);
  });

  it("a scatter read without Content-Length streams to the end to learn the size, within maxValueBytes", async () => {
    const target = new Uint8Array(10);
    expect(await store().readInto(`big-chunked/${4 * MiB}`, [{ offset: 7, target }])).toBe(4 * MiB);
    expect(target).toEqual(generated(7, 10));
    await rejectsWith(store({ maxValueBytes: MiB }).readInto(`big-chunked/${4 * MiB}`, [{ offset: 7, target }]), "STORE_TOO_LARGE");
  });

  it("a suffix range keeps only the last bytes while the body streams past, within maxValueBytes", async () => {
    const size = 48 * MiB;
    const { growth, result } = await peakGrowth(() => store().getRange(`big/${size}`, { suffixLength: 100 }));
    expect(result).toEqual(generated(size - 100, 100));
    expect(growth).toBeLessThan(64 * MiB);
    await rejectsWith(store({ maxValueBytes: 8 * MiB }).getRange(`big/${size}`, { suffixLength: 100 }), "STORE_TOO_LARGE");
  });

  it("an open range (offset to the end) is bounded by maxValueBytes", async () => {
    expect(await store().getRange(`big/${MiB}`, { offset: MiB - 5 })).toEqual(generated(MiB - 5, 5));
    await rejectsWith(store({ maxValueBytes: 4 * MiB }).getRange(`big-chunked/${GiB}`, { offset: 10 }), "STORE_TOO_LARGE");
  });
});

describe("gzip bombs (Content-Encoding: gzip, 1 GiB of zeros in about 1 MB)", () => {
  it("a 400-byte range stops inflating at 400 bytes", async () => {
    const { growth, result, error } = await peakGrowth(() => store().getRange("bomb/c/0", { offset: 0, length: 400 }));
    expect(error).toBeUndefined();
    expect(result).toEqual(new Uint8Array(400));
    expect(growth).toBeLessThan(64 * MiB);
  });

  it("a whole chunk fails fast at maxValueBytes, counting inflated bytes", async () => {
    const started = Date.now();
    const { growth, error } = await peakGrowth(() => store({ maxValueBytes: 4 * MiB }).get("bomb/c/0"));
    await rejectsWith(Promise.reject(error), "STORE_TOO_LARGE");
    expect(growth).toBeLessThan(64 * MiB);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("a bomb served as zarr.json fails at the metadata cap", async () => {
    const { growth, error } = await peakGrowth(() => store({ maxMetadataBytes: 8 * MiB }).get("bomb/zarr.json"));
    await rejectsWith(Promise.reject(error), "STORE_TOO_LARGE");
    expect(growth).toBeLessThan(64 * MiB);
  });

  it("getSize of a bomb without a usable length counts within the cap", async () => {
    // HEAD is answered with the gzip body's headers (a content coding: the length is not the value's).
    await rejectsWith(store({ maxValueBytes: 4 * MiB }).getSize("bomb/c/0"), "STORE_TOO_LARGE");
  });
});
