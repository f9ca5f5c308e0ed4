import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { HttpStore, type HttpStoreOptions } from "../src/index.js";
import { FILES, rejectsWith, type Served, serveFixtures, timed } from "./fixtures.js";

let served: Served;
beforeAll(async () => {
  served = await serveFixtures();
});
afterAll(() => served.close());
beforeEach(() => served.server.reset());

const store = (options: HttpStoreOptions = {}) => new HttpStore(served.server.url, { retryDelay: 1, maxRetryDelay: 20, ...options });
const seen = () => served.server.requests.length;

describe("retries", () => {
  it("succeeds after two 503s", async () => {
    served.server.behaviour = { fail: { status: 503, times: 2 } };
    expect(await store().get("a.bin")).toEqual(FILES["a.bin"]);
    expect(seen()).toBe(3);
  });

  it("retries 429, 500, 502 and 504 too", async () => {
    for (const status of [429, 500, 502, 504]) {
      served.server.reset();
      served.server.behaviour = { fail: { status, times: 1 } };
      expect(await store().getRange("a.bin", { offset: 0, length: 4 }), String(status)).toEqual(FILES["a.bin"].slice(0, 4));
      expect(seen()).toBe(2);
    }
  });

  it("gives STORE_FAILED naming key, URL, status and attempts when retries run out", async () => {
    served.server.behaviour = { fail: { status: 503, times: 100 } };
    const error = await rejectsWith(store({ retries: 2 }).get("dir/nested.bin"), "STORE_FAILED");
    expect(seen()).toBe(3);
    expect(error.key).toBe("dir/nested.bin");
    expect(error.message).toContain('"dir/nested.bin"');
    expect(error.message).toContain(`${served.server.url}dir/nested.bin`);
    expect(error.message).toContain("HTTP 503");
    expect(error.message).toContain("3 attempts");
  });

  it("does not retry other 4xx statuses", async () => {
    for (const status of [400, 401, 403, 410]) {
      served.server.reset();
      served.server.behaviour = { fail: { status, times: 5 } };
      const error = await rejectsWith(store().get("a.bin"), "STORE_FAILED");
      expect(error.message).toContain(`HTTP ${status}`);
      expect(error.message).toContain("not retried");
      expect(seen()).toBe(1);
    }
  });

  it("treats only the configured missing statuses as missing keys", async () => {
    served.server.behaviour = { missingStatus: 403 };
    await rejectsWith(store().get("missing.bin"), "STORE_FAILED");
    expect(await store({ missingStatuses: [403, 404] }).get("missing.bin")).toBeUndefined();
    expect(await store({ missingStatuses: [403, 404] }).getSize("missing.bin")).toBeUndefined();
    expect(await store({ missingStatuses: [403, 404] }).getRange("missing.bin", { suffixLength: 2 })).toBeUndefined();
    served.server.behaviour = {};
    await rejectsWith(store({ missingStatuses: [403] }).get("missing.bin"), "STORE_FAILED"); // 404 is no longer "missing"
    expect(seen()).toBe(5);
  });

  it("honours Retry-After in seconds", async () => {
    served.server.behaviour = { fail: { status: 503, times: 1, retryAfter: "1" } };
    const [value, ms] = await timed(() => store({ maxRetryDelay: 5000 }).get("one.bin"));
    expect(value).toEqual(FILES["one.bin"]);
    expect(ms).toBeGreaterThanOrEqual(950);
    expect(ms).toBeLessThan(3000);
  });

  it("caps a long Retry-After at maxRetryDelay", async () => {
    served.server.behaviour = { fail: { status: 429, times: 1, retryAfter: "3600" } };
    const [value, ms] = await timed(() => store({ maxRetryDelay: 150 }).get("one.bin"));
    expect(value).toEqual(FILES["one.bin"]);
    expect(ms).toBeGreaterThanOrEqual(140);
    expect(ms).toBeLessThan(1000);
  });

  it("caps backoff waits at maxRetryDelay", async () => {
    served.server.behaviour = { fail: { status: 503, times: 100 } };
    // Uncapped, waits below 10 s, 20 s and 40 s could follow; capped, each is below 50 ms.
    const [, ms] = await timed(() => rejectsWith(store({ retries: 3, retryDelay: 10_000, maxRetryDelay: 50 }).get("a.bin"), "STORE_FAILED"));
    expect(seen()).toBe(4);
    expect(ms).toBeLessThan(3 * 50 + 1500);
  });
});

describe("broken transfers never produce data", () => {
  it("retries a connection reset mid-body, then succeeds", async () => {
    served.server.behaviour = { reset: 1 };
    expect(await store().get("a.bin")).toEqual(FILES["a.bin"]);
    expect(seen()).toBe(2);
  });

  it("gives STORE_FAILED when every attempt is reset mid-body", async () => {
    served.server.behaviour = { reset: 10 };
    const error = await rejectsWith(store({ retries: 2 }).get("a.bin"), "STORE_FAILED");
    expect(seen()).toBe(3);
    expect(error.message).toContain("3 attempts");
  });

  it("gives STORE_FAILED when every body is shorter than Content-Length", async () => {
    served.server.behaviour = { short: 10 };
    await rejectsWith(store({ retries: 1 }).get("a.bin"), "STORE_FAILED");
    served.server.behaviour = { short: 10 };
    await rejectsWith(store({ retries: 1 }).getRange("a.bin", { offset: 100, length: 500 }), "STORE_FAILED");
    served.server.behaviour = { short: 10 };
    await rejectsWith(store({ retries: 1 }).getRange("a.bin", { suffixLength: 100 }), "STORE_FAILED");
    expect(seen()).toBe(6);
  });

  it("readInto retries a body cut off mid-way and a lying Content-Range, then fails with STORE_FAILED, never short data", async () => {
    const target = new Uint8Array(500);
    for (const behaviour of [{ reset: 1 }, { short: 1 }, { badContentRange: 1 }]) {
      served.server.behaviour = behaviour;
      target.fill(0);
      expect(await store().readInto("a.bin", [{ offset: 100, target }])).toBe(1000);
      expect(target).toEqual(FILES["a.bin"].slice(100, 600));
    }
    served.server.behaviour = { short: 10 };
    await rejectsWith(store({ retries: 1 }).readInto("a.bin", [{ offset: 0, target: new Uint8Array(1000) }]), "STORE_FAILED");
  });

  it("retries a truncated range response and a lying Content-Range", async () => {
    served.server.behaviour = { short: 1 };
    expect(await store().getRange("a.bin", { offset: 100, length: 500 })).toEqual(FILES["a.bin"].slice(100, 600));
    served.server.behaviour = { badContentRange: 1 };
    expect(await store().getRange("a.bin", { offset: 100, length: 500 })).toEqual(FILES["a.bin"].slice(100, 600));
    expect(seen()).toBe(4);
    served.server.behaviour = { badContentRange: 10 };
    const error = await rejectsWith(store({ retries: 1 }).getRange("a.bin", { suffixLength: 10 }), "STORE_FAILED");
    expect(error.message).toMatch(/Content-Range/);
  });
});

describe("timeouts and aborts", () => {
  it("retries a hung request after the timeout, then fails with STORE_FAILED naming the timeout", async () => {
    served.server.behaviour = { hang: 10 };
    const [error, ms] = await timed(() => rejectsWith(store({ timeout: 100, retries: 1 }).get("a.bin"), "STORE_FAILED"));
    expect(error.message).toContain("timed out after 100 ms");
    expect(seen()).toBe(2);
    expect(ms).toBeGreaterThanOrEqual(190);
    expect(ms).toBeLessThan(1500);
  });

  it("covers the body with the timeout (a stall mid-body times out too)", async () => {
    served.server.behaviour = { hangMidBody: 1 };
    expect(await store({ timeout: 150 }).get("a.bin")).toEqual(FILES["a.bin"]);
    expect(seen()).toBe(2);
  });

  it("rejects with ABORTED at once when the caller aborts a hung request", async () => {
    served.server.behaviour = { hang: 1 };
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const [, ms] = await timed(() => rejectsWith(store().get("a.bin", { signal: controller.signal }), "ABORTED"));
    expect(ms).toBeLessThan(500);
    expect(seen()).toBe(1);
  });

  it("stops a backoff sleep at once when the caller aborts", async () => {
    served.server.behaviour = { fail: { status: 503, times: 5, retryAfter: "30" } };
    const controller = new AbortController();
    const s = store({ maxRetryDelay: 60_000 });
    setTimeout(() => controller.abort(new Error("user gave up")), 100);
    const [error, ms] = await timed(() => rejectsWith(s.getRange("a.bin", { suffixLength: 3 }, { signal: controller.signal }), "ABORTED"));
    expect(ms).toBeLessThan(600);
    expect(seen()).toBe(1);
    expect((error.cause as Error).message).toBe("user gave up");
  });

  it("notices an abort that happens while the request headers are being prepared", async () => {
    served.server.behaviour = { hang: 1 };
    const controller = new AbortController();
    const s = store({
      headers: async () => {
        controller.abort();
        return { authorization: "Bearer late" };
      },
    });
    const [, ms] = await timed(() => rejectsWith(s.get("a.bin", { signal: controller.signal }), "ABORTED"));
    expect(ms).toBeLessThan(500);
  });

  it("rejects with ABORTED without a request when the signal is already aborted", async () => {
    await rejectsWith(store().get("a.bin", { signal: AbortSignal.abort() }), "ABORTED");
    await rejectsWith(store().getSize("a.bin", { signal: AbortSignal.abort() }), "ABORTED");
    expect(seen()).toBe(0);
  });

  it("gives STORE_FAILED (not a hang) when nothing listens on the port", async () => {
    const s = new HttpStore("http://127.0.0.1:1/", { retries: 1, retryDelay: 1 });
    const error = await rejectsWith(s.get("a.bin"), "STORE_FAILED");
    expect(error.message).toContain("network error");
    expect(error.message).toContain("2 attempts");
  });
});
