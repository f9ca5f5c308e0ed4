/**
 * The lazily loaded operations take the store's up-front functions from kit.ts, which each
 * binds on entry: here every operation runs first in a fresh module graph (no other
 * operation has bound the kit before it), so one that forgot to bind fails.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { FILES, type Served, serveFixtures } from "./fixtures.js";

let served: Served;
beforeAll(async () => {
  served = await serveFixtures();
});
afterAll(() => served.close());
beforeEach(() => {
  served.server.reset();
  vi.resetModules();
});

/** A store from a fresh copy of the package's modules. */
async function freshStore(readOnly = true) {
  const { HttpStore } = await import("../src/index.js");
  return new HttpStore(served.server.url, { readOnly, retryDelay: 1 });
}

describe("each lazily loaded operation, run first", () => {
  it("getRange", async () => {
    expect(await (await freshStore()).getRange("a.bin", { offset: 10, length: 5 })).toEqual(FILES["a.bin"].slice(10, 15));
  });
  it("getVersioned", async () => {
    expect((await (await freshStore()).getVersioned("a.bin", { suffixLength: 4 }))?.bytes).toEqual(FILES["a.bin"].slice(-4));
  });
  it("readInto", async () => {
    const target = new Uint8Array(3);
    expect(await (await freshStore()).readInto("a.bin", [{ offset: 2, target }])).toBe(1000);
    expect(target).toEqual(FILES["a.bin"].slice(2, 5));
  });
  it("getSize", async () => {
    expect(await (await freshStore()).getSize("dir/nested.bin")).toBe(300);
  });
  it("set and delete", async () => {
    served.server.behaviour = { writable: true };
    await (await freshStore(false)).set("kit/new.bin", FILES["one.bin"]);
    vi.resetModules();
    await (await freshStore(false)).delete("kit/new.bin");
    expect(served.server.requests.map((r) => r.method)).toEqual(["PUT", "DELETE"]);
  });
  it("setIfVersion", async () => {
    served.server.behaviour = { writable: true };
    await (await freshStore(false)).setIfVersion("kit/other.bin", FILES["one.bin"], null);
    expect(served.server.requests.map((r) => r.method)).toEqual(["PUT"]);
  });
});
