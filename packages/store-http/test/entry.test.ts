import { createRegistry, openStore } from "@zarr/core";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { HttpStore, httpStoreEntry } from "../src/index.js";
import { FILES, rejectsWith, type Served, serveFixtures } from "./fixtures.js";

let served: Served;
beforeAll(async () => {
  served = await serveFixtures();
});
afterAll(() => served.close());
beforeEach(() => served.server.reset());

const registry = createRegistry([httpStoreEntry]);

it("describes itself as the http store for http and https", () => {
  expect(httpStoreEntry).toMatchObject({ type: "store", name: "http", schemes: ["http", "https"], package: "@zarr/store-http" });
});

it("opens http URLs through openStore, read-only by default, passing settings on", async () => {
  served.server.behaviour = { requireAuth: "Bearer t", missingStatus: 403, fail: { status: 503, times: 1 } };
  const store = await openStore(`${served.server.url}dir`, {
    registry,
    headers: { authorization: "Bearer t" },
    missingStatuses: [403, 404],
    retries: 1,
    retryDelay: 1,
    timeout: 5000,
  });
  expect(store).toBeInstanceOf(HttpStore);
  const http = store as HttpStore;
  expect(http.readOnly).toBe(true);
  expect(await http.get("nested.bin")).toEqual(FILES["dir/nested.bin"]); // after one 503, with the header
  expect(await http.get("missing")).toBeUndefined(); // 403 counts as missing
  await rejectsWith(http.set("x", new Uint8Array(1)), "STORE_READ_ONLY");
});

it("respects readOnly: false", async () => {
  const store = (await openStore(served.server.url, { registry, readOnly: false })) as HttpStore;
  expect(store.readOnly).toBe(false);
});

it("rejects bad settings with INVALID_ARGUMENT", async () => {
  await rejectsWith(Promise.resolve().then(() => openStore(served.server.url, { registry, retries: -1 })), "INVALID_ARGUMENT");
});
