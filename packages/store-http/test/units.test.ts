/**
 * Response handling that a well-behaved local server does not produce (hidden or odd
 * Content-Range, content codings, a browser-like fetch), through a scripted fetch; and
 * the pure helpers: Retry-After, backoff, options, base URLs.
 */
import { describe, expect, it } from "vitest";
import { BODY_INTO, HttpStore, type HttpStoreOptions } from "../src/index.js";
import { readBody } from "../src/read-body.js";
import { isRetryableStatus, parseRetryAfter, retryWait } from "../src/retry-policy.js";
import { pattern, rejectsWith } from "./fixtures.js";

const DATA = pattern(100, 42);

/** A fetch that answers from a script and records the requests. */
function scripted(answer: (url: string, init: RequestInit, n: number) => Response) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return answer(url, init, calls.length);
  };
  return { fetch, calls };
}

const store = (fetch: HttpStoreOptions["fetch"], options: HttpStoreOptions = {}) =>
  new HttpStore("https://example.test/root/", { fetch, retries: 1, retryDelay: 1, ...options });

const partial = (from: number, to: number, headers: Record<string, string> = {}) =>
  new Response(DATA.slice(from, to), { status: 206, headers });

describe("206 responses", () => {
  it("accepts a 206 without Content-Range (hidden cross-origin) when it is no longer than asked", async () => {
    const { fetch } = scripted(() => partial(10, 20));
    expect(await store(fetch).getRange("k", { offset: 10, length: 10 })).toEqual(DATA.slice(10, 20));
    expect(await store(fetch).getRange("k", { suffixLength: 10 })).toEqual(DATA.slice(10, 20));
  });

  it("rejects a 206 without Content-Range that is longer than asked", async () => {
    const { fetch, calls } = scripted(() => partial(0, 50));
    await rejectsWith(store(fetch).getRange("k", { offset: 10, length: 10 }), "STORE_FAILED");
    await rejectsWith(store(fetch).getRange("k", { suffixLength: 10 }), "STORE_FAILED");
    expect(calls).toHaveLength(4); // retried: a corrupt response may be a transient fault
  });

  it("cuts the asked range out of a larger 206 (a server that rounds ranges up)", async () => {
    const { fetch } = scripted(() => partial(0, 64, { "content-range": "bytes 0-63/100" }));
    expect(await store(fetch).getRange("k", { offset: 10, length: 5 })).toEqual(DATA.slice(10, 15));
  });

  it("returns exactly the last n bytes of a larger suffix 206", async () => {
    const { fetch } = scripted(() => partial(80, 100, { "content-range": "bytes 80-99/100" }));
    expect(await store(fetch).getRange("k", { suffixLength: 10 })).toEqual(DATA.slice(90));
  });

  it("rejects a 206 that stops short of the end the total says exists", async () => {
    const { fetch } = scripted(() => partial(10, 20, { "content-range": "bytes 10-19/100" }));
    await rejectsWith(store(fetch).getRange("k", { offset: 10, length: 20 }), "STORE_FAILED");
    await rejectsWith(store(fetch).getRange("k", { offset: 10 }), "STORE_FAILED");
    await rejectsWith(store(fetch).getRange("k", { suffixLength: 10 }), "STORE_FAILED");
  });

  it("accepts a short 206 at the end of the value", async () => {
    const { fetch } = scripted(() => partial(90, 100, { "content-range": "bytes 90-99/100" }));
    expect(await store(fetch).getRange("k", { offset: 90, length: 50 })).toEqual(DATA.slice(90));
    expect(await store(fetch).getRange("k", { offset: 90 })).toEqual(DATA.slice(90));
    expect(await store(fetch).getRange("k", { suffixLength: 10 })).toEqual(DATA.slice(90));
  });

  it("takes a suffix from a 206 of unknown total", async () => {
    const { fetch } = scripted(() => partial(90, 100, { "content-range": "bytes 90-99/*" }));
    expect(await store(fetch).getRange("k", { suffixLength: 10 })).toEqual(DATA.slice(90));
  });

  it("rejects malformed and self-contradicting Content-Range headers", async () => {
    for (const header of ["bytes 10-19", "bytes=10-19/100", "bytes 19-10/100", "bytes 10-100/100", "bytes 10-19/99999999999999999999"]) {
      const { fetch } = scripted(() => partial(10, 20, { "content-range": header }));
      const error = await rejectsWith(store(fetch).getRange("k", { offset: 10, length: 10 }), "STORE_FAILED");
      expect(error.message, header).toContain("Content-Range");
    }
  });

  it("rejects a Content-Length that disagrees with Content-Range", async () => {
    const { fetch } = scripted(() => partial(10, 20, { "content-range": "bytes 10-19/100", "content-length": "9" }));
    const error = await rejectsWith(store(fetch).getRange("k", { offset: 10, length: 10 }), "STORE_FAILED");
    expect(error.message).toContain("Content-Length 9");
  });

  it("rejects a body that does not match its Content-Range length", async () => {
    const { fetch } = scripted(() => partial(10, 19, { "content-range": "bytes 10-19/100" }));
    const error = await rejectsWith(store(fetch).getRange("k", { offset: 10, length: 10 }), "STORE_FAILED");
    expect(error.message).toContain("ended after 9 of 10 bytes");
  });

  it("rejects a 416 whose total says the range was satisfiable", async () => {
    const { fetch } = scripted(() => new Response(null, { status: 416, headers: { "content-range": "bytes */100" } }));
    await rejectsWith(store(fetch).getRange("k", { offset: 50 }), "STORE_FAILED");
    expect(await store(fetch).getRange("k", { offset: 100 })).toEqual(new Uint8Array(0));
  });
});

describe("content codings", () => {
  it("does not hold a decoded body to the encoded Content-Length", async () => {
    // fetch decodes gzip; Content-Length then counts the encoded bytes.
    const { fetch } = scripted(() => new Response(DATA, { headers: { "content-encoding": "gzip", "content-length": "37" } }));
    expect(await store(fetch).get("k")).toEqual(DATA);
  });

  it("does not report an encoded length as the size", async () => {
    const { fetch, calls } = scripted((_url, init) =>
      init.method === "HEAD"
        ? new Response(null, { headers: { "content-encoding": "gzip", "content-length": "37" } })
        : (init.headers as Headers | undefined)?.get("range")
          ? new Response(DATA.slice(0, 1), { status: 206, headers: { "content-encoding": "gzip", "content-range": "bytes 0-0/37" } })
          : new Response(DATA, { headers: { "content-encoding": "gzip" } }),
    );
    expect(await store(fetch).getSize("k")).toBe(100);
    expect(calls.map((c) => c.init.method)).toEqual(["HEAD", "GET", "GET"]);
  });
});

describe("other statuses", () => {
  it("fails (not retried) on an unexpected success status", async () => {
    const { fetch, calls } = scripted(() => new Response(DATA, { status: 206, headers: { "content-range": "bytes 0-99/100" } }));
    const error = await rejectsWith(store(fetch).get("k"), "STORE_FAILED");
    expect(error.message).toContain("unexpected HTTP 206");
    expect(calls).toHaveLength(1);
  });

  it("retries 408 and server errors except 501 and 505", () => {
    expect([408, 429, 500, 502, 503, 504, 507, 599].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 410, 416, 501, 505].some(isRetryableStatus)).toBe(false);
  });

  it("elides the query string (it may hold a signature) in error messages", async () => {
    const { fetch } = scripted(() => new Response("no", { status: 401 }));
    const s = new HttpStore("https://example.test/root?X-Signature=secret", { fetch });
    const error = await rejectsWith(s.get("a/b"), "STORE_FAILED");
    expect(error.message).toContain("https://example.test/root/a/b?…");
    expect(error.message).not.toContain("secret");
  });

  it("wraps a throwing headers function as INVALID_ARGUMENT and sends nothing", async () => {
    const { fetch, calls } = scripted(() => new Response(DATA));
    const s = store(fetch, {
      headers: () => {
        throw new Error("token service down");
      },
    });
    const error = await rejectsWith(s.get("k"), "INVALID_ARGUMENT");
    expect(error.message).toContain("token service down");
    await rejectsWith(store(fetch, { headers: { "bad header": "x" } }).get("k"), "INVALID_ARGUMENT");
    expect(calls).toHaveLength(0);
  });

  it("passes requestInit settings to fetch", async () => {
    const { fetch, calls } = scripted(() => new Response(DATA));
    await store(fetch, { requestInit: { credentials: "include", cache: "no-store" } }).get("k");
    expect(calls[0].init.credentials).toBe("include");
    expect(calls[0].init.cache).toBe("no-store");
    expect(calls[0].init.method).toBe("GET");
  });
});

describe("Retry-After and backoff", () => {
  it("parses delta-seconds and HTTP dates", () => {
    const now = Date.parse("Wed, 21 Oct 2015 07:28:00 GMT");
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter(" 0 ", now)).toBe(0);
    expect(parseRetryAfter("Wed, 21 Oct 2015 07:28:05 GMT", now)).toBe(5000);
    expect(parseRetryAfter("Wed, 21 Oct 2015 07:27:00 GMT", now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter("-3", now)).toBeUndefined();
    expect(parseRetryAfter("1.5", now)).toBeUndefined();
  });

  it("draws full-jitter waits below min(cap, base·2^n) and caps Retry-After", () => {
    expect(retryWait(0, 100, 5000, undefined, () => 0.999)).toBe(99);
    expect(retryWait(3, 100, 5000, undefined, () => 0.5)).toBe(400);
    expect(retryWait(10, 100, 5000, undefined, () => 0.999)).toBe(4995);
    expect(retryWait(2000, 100, 5000, undefined, () => 0.5)).toBe(2500);
    expect(retryWait(4, 100, 5000, undefined, () => 0)).toBe(0);
    expect(retryWait(0, 100, 5000, 60_000)).toBe(5000);
    expect(retryWait(0, 100, 5000, 250)).toBe(250);
  });
});

describe("construction", () => {
  it("validates options with INVALID_ARGUMENT", () => {
    const bad: HttpStoreOptions[] = [
      { timeout: -1 },
      { retries: 1.5 },
      { retries: Number.POSITIVE_INFINITY },
      { retryDelay: Number.NaN },
      { missingStatuses: [200] },
      { missingStatuses: "404" as unknown as number[] },
      { fetch: "fetch" as unknown as HttpStoreOptions["fetch"] },
      { readOnly: "no" as unknown as boolean },
      { headers: 5 as unknown as HeadersInit },
    ];
    for (const options of bad) {
      expect(() => new HttpStore("https://example.test/", options), JSON.stringify(options)).toThrow(
        expect.objectContaining({ code: "INVALID_ARGUMENT" }),
      );
    }
  });

  it("accepts only absolute http(s) URLs outside browsers", () => {
    for (const url of ["data.zarr", "/data.zarr", "ftp://host/x", "file:///tmp/x", "s3://bucket/x"]) {
      expect(() => new HttpStore(url), url).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    }
    expect(new HttpStore(new URL("HTTPS://Example.TEST:443/a b/")).url).toBe("https://example.test/a%20b/");
  });

  it("resolves relative URLs against the page in a browser", async () => {
    const g = globalThis as { location?: { href: string } };
    g.location = { href: "https://app.example.test/viewer/index.html" };
    try {
      const { fetch, calls } = scripted(() => new Response(DATA));
      await new HttpStore("../data/store.zarr", { fetch }).get("zarr.json");
      expect(calls[0].url).toBe("https://app.example.test/data/store.zarr/zarr.json");
    } finally {
      delete g.location;
    }
  });

  it("uses a timeout of 0 or Infinity as no time limit", async () => {
    const { fetch, calls } = scripted(() => new Response(DATA));
    await store(fetch, { timeout: 0 }).get("k");
    await store(fetch, { timeout: Number.POSITIVE_INFINITY }).get("k");
    expect(calls.map((c) => c.init.signal)).toEqual([undefined, undefined]);
  });
});

describe("readBody", () => {
  const body = pattern(10_000, 3);
  const pieces = [body.subarray(0, 4000), body.subarray(4000, 4001), body.subarray(4001)];
  function streamed(): Response {
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (const p of pieces) c.enqueue(p.slice());
        c.close();
      },
    });
    return new Response(stream, { headers: { "content-length": String(body.length) } });
  }
  /** A direct body path that lends one read buffer, overwritten for every piece. */
  function lending(): Response {
    const r = new Response(null) as Response & { [BODY_INTO]?: (sink: (b: Uint8Array) => void) => Promise<void> };
    const buffer = new Uint8Array(8192);
    r[BODY_INTO] = async (sink) => {
      for (const p of pieces) {
        buffer.set(p);
        sink(buffer.subarray(0, p.length));
        buffer.fill(0xee);
      }
    };
    return r;
  }

  it.each([
    ["a body stream", streamed],
    ["a lent read buffer", lending],
  ])("joins %s exactly, preallocated or collected piece by piece", async (_name, make) => {
    for (const limit of [1 << 20, 0]) {
      const got = await readBody(make(), body.length, Number.POSITIVE_INFINITY, limit);
      expect(got.byteOffset).toBe(0);
      expect(got.buffer.byteLength).toBe(body.length);
      expect(Buffer.compare(got, body)).toBe(0);
    }
    await expect(readBody(make(), body.length + 1, Number.POSITIVE_INFINITY, 0)).rejects.toThrow(/ended after 10000 of 10001 bytes/);
    await expect(readBody(make(), body.length - 1, Number.POSITIVE_INFINITY, 0)).rejects.toThrow(/longer than the 9999 bytes/);
  });
});
