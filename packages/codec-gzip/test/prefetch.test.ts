import { describe, expect, it } from "vitest";
import { backend as browserBackend } from "../src/backend.browser.js";
import type { DeflateBackend } from "../src/backend.js";
import { createGzipEntry, createZlibEntry } from "../src/codec.js";
import { fflateBackend } from "../src/fflate-backend.js";

describe("prefetch", () => {
  it("the gzip and zlib entries pass prefetch to their backend", () => {
    let calls = 0;
    const spied: DeflateBackend = { ...fflateBackend, prefetch: () => calls++ };
    createGzipEntry(spied).prefetch?.();
    createZlibEntry(spied).prefetch?.();
    expect(calls).toBe(2);
    // A backend with nothing to load (node:zlib, fflate itself) needs none.
    expect(() => createGzipEntry(fflateBackend).prefetch?.()).not.toThrow();
  });

  it("the browser backend starts loading its decoder and still decodes", async () => {
    expect(typeof browserBackend.prefetch).toBe("function");
    browserBackend.prefetch?.();
    const bytes = await fflateBackend.compressGzip(Uint8Array.of(1, 2, 3), 5);
    expect(Array.from(await browserBackend.decompressGzip(bytes, 3))).toEqual([1, 2, 3]);
  });
});
