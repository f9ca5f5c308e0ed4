import { type ByteRange, isListable, isWritable, resolveByteRange, supportsRanges } from "@zarr/spec";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { HttpStore } from "../src/index.js";
import { FILES, rejectsWith, type Served, serveFixtures, timed } from "./fixtures.js";
import type { ServerBehaviour } from "./server.js";

let served: Served;
beforeAll(async () => {
  served = await serveFixtures({ zarr: true });
});
afterAll(() => served.close());
beforeEach(() => served.server.reset());

const store = (options = {}) => new HttpStore(served.server.url, { retryDelay: 1, ...options });
const expectedRange = (key: string, range: ByteRange): Uint8Array => {
  const bytes = FILES[key];
  const [from, to] = resolveByteRange(range, bytes.length);
  return bytes.slice(from, to);
};

describe("get", () => {
  it("reads whole values as Uint8Arrays on their own buffer", async () => {
    for (const [key, bytes] of Object.entries(FILES)) {
      const value = await store().get(key);
      expect(value, key).toEqual(bytes);
      expect(value?.byteOffset).toBe(0);
      expect(value?.buffer.byteLength).toBe(bytes.length);
    }
  });

  it("resolves undefined for a missing key after one request", async () => {
    expect(await store().get("nope/zarr.json")).toBeUndefined();
    expect(served.server.requests.map((r) => r.method)).toEqual(["GET"]);
  });

  it("percent-encodes each key segment: spaces, unicode, #, ? and % reach the server intact", async () => {
    await store().get("with space/file #1?.bin");
    await store().get("ünïcødé/€ 100%.bin");
    await store().get("percent%2F/x");
    const seen = served.server.requests;
    expect(seen.map((r) => r.path)).toEqual(["with space/file #1?.bin", "ünïcødé/€ 100%.bin", "percent%2F/x"]);
    expect(seen[0].url).toBe("/with%20space/file%20%231%3F.bin");
    expect(seen[2].url).toBe("/percent%252F/x");
  });

  it("round-trips arbitrary well-formed key segments through the server", async () => {
    // Segment names the file system accepts: no "/", NUL, "." or "..", at most 60 UTF-8 bytes.
    const segment = fc
      .string({ unit: "grapheme", minLength: 1, maxLength: 8 })
      .filter((s) => !s.includes("/") && !s.includes("\0") && !s.includes("\\") && s !== "." && s !== ".." && Buffer.byteLength(s) <= 60);
    await fc.assert(
      fc.asyncProperty(fc.array(segment, { minLength: 1, maxLength: 3 }), async (segments) => {
        const key = ["fc", ...segments].join("/");
        served.server.requests.length = 0;
        await store().get(key);
        expect(served.server.requests.at(-1)?.path).toBe(key);
      }),
      { numRuns: 40 },
    );
  });

  it("resolves the key under the base path, with or without a trailing slash", async () => {
    const base = `${served.server.url}data.zarr`;
    const a = await new HttpStore(base).get("zarr.json");
    const b = await new HttpStore(`${base}/`).get("zarr.json");
    expect(a).toBeDefined();
    expect(b).toEqual(a);
    expect(served.server.requests.map((r) => r.url)).toEqual(["/data.zarr/zarr.json", "/data.zarr/zarr.json"]);
  });

  it("keeps the base URL's query string on every request and drops its fragment", async () => {
    const s = new HttpStore(`${served.server.url}dir?token=a%20b&x=1#frag`);
    expect(s.url).toBe(`${served.server.url}dir/?token=a%20b&x=1`);
    await s.get("nested.bin");
    await s.getRange("nested.bin", { suffixLength: 4 });
    await s.getSize("nested.bin");
    expect(served.server.requests.map((r) => r.url)).toEqual([
      "/dir/nested.bin?token=a%20b&x=1",
      "/dir/nested.bin?token=a%20b&x=1",
      "/dir/nested.bin?token=a%20b&x=1",
    ]);
  });

  it("sends fixed headers, or asks a headers function before every request", async () => {
    served.server.behaviour = { requireAuth: "Bearer sesame" };
    await rejectsWith(store().get("a.bin"), "STORE_FAILED");
    expect(await store({ headers: { Authorization: "Bearer sesame" } }).get("a.bin")).toEqual(FILES["a.bin"]);
    const calls: string[] = [];
    const s = store({
      headers: async ({ method, key, url }: { method: string; key: string; url: string }) => {
        calls.push(`${method} ${key} ${url}`);
        return { authorization: "Bearer sesame", "x-extra": "1" };
      },
    });
    expect(await s.getRange("a.bin", { offset: 1, length: 2 })).toEqual(FILES["a.bin"].slice(1, 3));
    expect(calls).toEqual([`GET a.bin ${served.server.url}a.bin`]);
    expect(served.server.requests.at(-1)?.headers["x-extra"]).toBe("1");
    expect(served.server.requests.at(-1)?.headers.range).toBe("bytes=1-2");
  });

  it("turns credentials in the base URL into a Basic Authorization header", async () => {
    served.server.behaviour = { requireAuth: `Basic ${Buffer.from("üser:p@ss").toString("base64")}` };
    const url = new URL(served.server.url);
    url.username = "üser";
    url.password = "p@ss";
    const s = new HttpStore(url);
    expect(s.url).toBe(served.server.url);
    expect(await s.get("one.bin")).toEqual(FILES["one.bin"]);
  });

  it("rejects invalid keys with KEY_INVALID before any request", async () => {
    for (const key of ["", "/abs", "a//b", "../x", "a/./b", "a\\b", "bad\uD800surrogate"]) {
      await rejectsWith(store().get(key), "KEY_INVALID");
      await rejectsWith(store().getRange(key, { offset: 0 }), "KEY_INVALID");
      await rejectsWith(store().getSize(key), "KEY_INVALID");
    }
    expect(served.server.requests).toEqual([]);
  });

  it("issues requests in parallel (nothing serialises them)", async () => {
    served.server.behaviour = { latency: 150 };
    // Without coalescing: the four identical ranges would be one request (tested below).
    const s = store({ coalesce: false });
    const keys = Array.from({ length: 8 }, () => "a.bin");
    const [values, ms] = await timed(() => Promise.all(keys.map((k, i) => (i % 2 ? s.get(k) : s.getRange(k, { offset: 0, length: 10 })))));
    expect(values[1]).toEqual(FILES["a.bin"]);
    expect(served.server.maxInFlight).toBe(8);
    expect(ms).toBeLessThan(8 * 150);
  });
});

describe("getRange", () => {
  const modes: Record<string, ServerBehaviour> = {
    "a server with Range support": {},
    "a server that ignores Range": { ignoreRange: true },
    "a server without Content-Length": { chunked: true },
  };
  for (const [name, behaviour] of Object.entries(modes)) {
    it(`matches resolveByteRange on ${name}`, async () => {
      const s = store();
      const keys = ["a.bin", "empty.bin", "one.bin", "dir/nested.bin"];
      const size = (key: string) => FILES[key].length;
      const arbitrary = fc.constantFrom(...keys).chain((key) =>
        fc.tuple(
          fc.constant(key),
          fc.oneof(
            fc.record({ offset: fc.nat(size(key) + 5), length: fc.nat(size(key) + 5) }),
            fc.record({ offset: fc.nat(size(key) + 5) }),
            fc.record({ suffixLength: fc.nat(size(key) + 5) }),
          ) as fc.Arbitrary<ByteRange>,
        ),
      );
      await fc.assert(
        fc.asyncProperty(arbitrary, async ([key, range]) => {
          served.server.behaviour = { ...behaviour };
          expect(await s.getRange(key, range)).toEqual(expectedRange(key, range));
        }),
        { numRuns: 60 },
      );
      served.server.behaviour = { ...behaviour };
      expect(await s.getRange("missing.bin", { offset: 3, length: 2 })).toBeUndefined();
      expect(await s.getRange("missing.bin", { suffixLength: 2 })).toBeUndefined();
      expect(await s.getRange("missing.bin", { offset: 3, length: 0 })).toBeUndefined();
    });
  }

  for (const [name, behaviour] of Object.entries(modes)) {
    it(`readInto fills the targets exactly as getRange would, on ${name}`, async () => {
      const s = store();
      const keys = ["a.bin", "one.bin", "dir/nested.bin"];
      const size = (key: string) => FILES[key].length;
      // Up to 6 targets anywhere in (or past the end of) the value, in any order, some empty.
      const arbitrary = fc.constantFrom(...keys).chain((key) =>
        fc.tuple(fc.constant(key), fc.array(fc.record({ offset: fc.nat(size(key) + 3), length: fc.nat(Math.min(size(key), 400)) }), { minLength: 1, maxLength: 6 })),
      );
      await fc.assert(
        fc.asyncProperty(arbitrary, async ([key, wanted]) => {
          served.server.behaviour = { ...behaviour };
          const ranges = wanted.map((w) => ({ offset: w.offset, target: new Uint8Array(w.length).fill(0xee) }));
          const total = await s.readInto(key, ranges);
          expect(total).toBe(size(key));
          if (wanted.every((w) => w.length === 0 || w.offset + w.length <= size(key))) {
            for (const r of ranges) expect(r.target).toEqual(FILES[key].slice(r.offset, r.offset + r.target.length));
          }
        }),
        { numRuns: 60 },
      );
      served.server.behaviour = { ...behaviour };
      expect(await s.readInto("missing.bin", [{ offset: 0, target: new Uint8Array(4) }])).toBeUndefined();
    });
  }

  it("readInto asks for the span of its ranges in one GET", async () => {
    const s = store();
    const a = new Uint8Array(10);
    const b = new Uint8Array(5);
    expect(await s.readInto("a.bin", [{ offset: 500, target: b }, { offset: 100, target: a }])).toBe(1000);
    expect(served.server.requests.map((r) => [r.method, r.headers.range])).toEqual([["GET", "bytes=100-504"]]);
    expect(a).toEqual(FILES["a.bin"].slice(100, 110));
    expect(b).toEqual(FILES["a.bin"].slice(500, 505));
    await expect(s.readInto("a.bin", [{ offset: -1, target: a }])).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
  });

  it("sends the HTTP range forms: bytes=a-b, bytes=a- and bytes=-n", async () => {
    const s = store();
    expect(await s.getRange("a.bin", { offset: 10, length: 5 })).toEqual(FILES["a.bin"].slice(10, 15));
    expect(await s.getRange("a.bin", { offset: 990 })).toEqual(FILES["a.bin"].slice(990));
    expect(await s.getRange("a.bin", { suffixLength: 7 })).toEqual(FILES["a.bin"].slice(993));
    expect(served.server.requests.map((r) => r.headers.range)).toEqual(["bytes=10-14", "bytes=990-", "bytes=-7"]);
  });

  it("reads a suffix with exactly one GET and no HEAD", async () => {
    const tail = await store().getRange("data.zarr/1d.contiguous.raw.i2/c/0", { suffixLength: 4 });
    expect(tail).toHaveLength(4);
    expect(served.server.requests).toHaveLength(1);
    expect(served.server.requests[0].method).toBe("GET");
    expect(served.server.requests[0].headers.range).toBe("bytes=-4");
  });

  it("gives an empty array past the end (416) but undefined for a missing key", async () => {
    const s = store();
    expect(await s.getRange("a.bin", { offset: 1000, length: 10 })).toEqual(new Uint8Array(0));
    expect(await s.getRange("a.bin", { offset: 5000 })).toEqual(new Uint8Array(0));
    expect(await s.getRange("empty.bin", { suffixLength: 3 })).toEqual(new Uint8Array(0));
    expect(served.server.requests).toHaveLength(3); // no retries: 416 is an answer
    expect(await s.getRange("nothing-here", { offset: 1000, length: 10 })).toBeUndefined();
  });

  it("clamps a range that runs past the end", async () => {
    expect(await store().getRange("a.bin", { offset: 995, length: 100 })).toEqual(FILES["a.bin"].slice(995));
    expect(await store().getRange("a.bin", { suffixLength: 5000 })).toEqual(FILES["a.bin"]);
  });

  it("rejects invalid ranges with INVALID_ARGUMENT and sends nothing", async () => {
    const bad = [{ offset: -1 }, { offset: 1.5 }, { offset: 0, length: -2 }, { suffixLength: -1 }, { suffixLength: Number.NaN }];
    for (const range of bad) await rejectsWith(store().getRange("a.bin", range), "INVALID_ARGUMENT");
    await rejectsWith(store().getRange("a.bin", null as unknown as ByteRange), "INVALID_ARGUMENT");
    expect(served.server.requests).toEqual([]);
  });

  it("answers zero-length ranges without asking HTTP for zero bytes", async () => {
    expect(await store().getRange("a.bin", { offset: 10, length: 0 })).toEqual(new Uint8Array(0));
    expect(await store().getRange("a.bin", { suffixLength: 0 })).toEqual(new Uint8Array(0));
    expect(served.server.requests.every((r) => r.method === "HEAD")).toBe(true);
  });
});

describe("getSize", () => {
  it("uses one HEAD request", async () => {
    expect(await store().getSize("a.bin")).toBe(1000);
    expect(await store().getSize("empty.bin")).toBe(0);
    expect(await store().getSize("missing")).toBeUndefined();
    expect(served.server.requests.map((r) => r.method)).toEqual(["HEAD", "HEAD", "HEAD"]);
  });

  it("falls back to a bytes=0-0 GET when HEAD is refused", async () => {
    served.server.behaviour = { noHead: true };
    expect(await store().getSize("a.bin")).toBe(1000);
    expect(await store().getSize("empty.bin")).toBe(0);
    expect(await store().getSize("missing")).toBeUndefined();
    expect(served.server.requests.map((r) => `${r.method} ${r.headers.range ?? ""}`)).toEqual([
      "HEAD ",
      "GET bytes=0-0",
      "HEAD ",
      "GET bytes=0-0",
      "HEAD ",
      "GET bytes=0-0",
    ]);
  });

  it("falls back to the body length when HEAD is refused and ranges are ignored", async () => {
    served.server.behaviour = { noHead: true, ignoreRange: true, chunked: true };
    expect(await store().getSize("dir/nested.bin")).toBe(300);
  });
});

describe("capabilities", () => {
  it("is readable with ranges, not listable, and not writable unless asked", async () => {
    const s = store();
    expect(supportsRanges(s)).toBe(true);
    expect(isListable(s)).toBe(false);
    expect("list" in s || "listPrefix" in s || "listDir" in s).toBe(false);
    expect(s.readOnly).toBe(true);
    expect(isWritable(s)).toBe(true); // the methods exist, and refuse with STORE_READ_ONLY
  });
});
