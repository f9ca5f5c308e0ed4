/**
 * `idleTimeout`: a request fails when no bytes arrive for that long (before the response or
 * inside its body), not retried, while a slow body that keeps coming is read however long
 * it takes. Over a real HTTP server, with the global fetch and with nodeFetch (whose direct
 * body path bypasses the body stream).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpStore, type HttpStoreOptions } from "../src/index.js";
import { createNodeFetch } from "../src/node-fetch.js";

const PIECES = 8;
const PIECE = 1000;
let server: Server;
let url: string;
let requests = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    requests++;
    const pieces = req.url === "/stalls" ? 2 : PIECES;
    res.writeHead(200, { "content-length": String(PIECES * PIECE) });
    // A piece every 60 ms: the whole body takes about half a second.
    let sent = 0;
    const timer = setInterval(() => {
      if (sent === pieces) {
        clearInterval(timer);
        if (pieces === PIECES) res.end();
        return; // "/stalls": the rest never comes
      }
      res.write(new Uint8Array(PIECE).fill(sent++));
    }, 60);
    res.on("close", () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

for (const [transport, fetch] of [
  ["global fetch", undefined],
  ["nodeFetch", createNodeFetch()],
] as const) {
  describe(`idleTimeout over ${transport}`, () => {
    const store = (options: HttpStoreOptions) => new HttpStore(url, { fetch, retryDelay: 1, ...options });

    it("reads a slow body that keeps coming, past what a total timeout of the same length allows", async () => {
      const value = await store({ idleTimeout: 300, timeout: 0 }).get("slow");
      expect(value?.length).toBe(PIECES * PIECE);
      expect(value?.[PIECES * PIECE - 1]).toBe(PIECES - 1);
      // The per-attempt total limit of the same length cuts the same body off.
      await expect(store({ timeout: 300, retries: 0 }).get("slow")).rejects.toMatchObject({ code: "STORE_FAILED", message: expect.stringContaining("timed out after 300 ms") });
    });

    it("fails a body that stalls soon after the last byte, once, without retrying", async () => {
      requests = 0;
      const started = performance.now();
      const error = await store({ idleTimeout: 250, retries: 3 }).get("stalls").catch((e: unknown) => e);
      const ms = performance.now() - started;
      expect(error).toMatchObject({ code: "STORE_FAILED", key: "stalls", message: expect.stringMatching(/stalled: no bytes arrived for 250 ms \(idleTimeout; not retried\)/) });
      expect(requests).toBe(1);
      // Two pieces (120 ms), then 250 ms of silence.
      expect(ms).toBeGreaterThanOrEqual(300);
      expect(ms).toBeLessThan(2000);
    });
  });
}

describe("the idleTimeout option", () => {
  it("must be a positive number or Infinity", () => {
    for (const bad of [0, -1, Number.NaN, "5"]) {
      expect(() => new HttpStore("http://127.0.0.1:9/", { idleTimeout: bad as number }), String(bad)).toThrow(/idleTimeout/);
    }
    expect(() => new HttpStore("http://127.0.0.1:9/", { idleTimeout: Number.POSITIVE_INFINITY })).not.toThrow();
  });
});
