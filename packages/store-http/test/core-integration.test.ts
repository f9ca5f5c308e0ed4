/**
 * @zarr/core over HTTP against zarr-python's fixtures: a hierarchy opened through its
 * consolidated metadata (one metadata request), arrays whose codecs core has built in
 * (bytes, transpose), values compared with the expected canonical JSON.
 */
import fs from "node:fs";
import path from "node:path";
import { children, get, open, openArray, toCanonicalJson, type ZarrArray, ZarrError, type ZarrGroup } from "@zarr/core";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { fixturesDir } from "../../../scripts/test-env.mjs";
import { HttpStore } from "../src/index.js";
import { type Served, serveFixtures } from "./fixtures.js";

let served: Served;
beforeAll(async () => {
  served = await serveFixtures({ zarr: true });
});
afterAll(() => served.close());
beforeEach(() => served.server.reset());

const expected = (name: string) =>
  JSON.parse(fs.readFileSync(path.join(fixturesDir(), "zarr-python/expected/v3", `${name}.json`), "utf8"));

/** The canonical JSON fields the fixtures record (shape and values). */
async function canonical(array: ZarrArray) {
  const json = toCanonicalJson(await get(array)) as { shape: unknown; values: unknown };
  return { shape: json.shape, values: json.values };
}

it("opens a hierarchy through its consolidated metadata with one metadata request", async () => {
  const store = new HttpStore(`${served.server.url}data.zarr`, { retryDelay: 1 });
  const group = (await open(store, "consolidated")) as ZarrGroup;
  expect(group.kind).toBe("group");
  expect(group.attributes).toEqual({ answer: 42 });
  const names = (await children(group)).map((c) => c.name);
  expect(names).toEqual(["1d.chunked.i2", "2d.contiguous.i2", "nested"]);

  for (const name of ["1d.chunked.i2", "2d.contiguous.i2", "nested/1d.i2"]) {
    const array = (await open(group, name)) as ZarrArray;
    expect(array.kind, name).toBe("array");
    expect(await canonical(array), name).toEqual(expected(`consolidated__${name.replaceAll("/", "__")}`));
  }
  const metadataRequests = served.server.requests.filter((r) => r.path.endsWith("zarr.json"));
  expect(metadataRequests.map((r) => r.path)).toEqual(["data.zarr/consolidated/zarr.json"]);
  // Chunks are plain GETs: 2 + 1 + 1 of them.
  expect(served.server.requests.filter((r) => r.path.includes("/c/"))).toHaveLength(4);
});

it("reads root arrays that use only built-in codecs", async () => {
  const store = new HttpStore(`${served.server.url}data.zarr/`, { retryDelay: 1 });
  const array = await openArray(store, "1d.contiguous.raw.i2");
  expect(await canonical(array)).toEqual(expected("1d.contiguous.raw.i2"));
});

it("reads through a flaky, slow server without Range support or Content-Length", async () => {
  const store = new HttpStore(`${served.server.url}data.zarr/consolidated`, { retryDelay: 1 });
  served.server.behaviour = { ignoreRange: true, chunked: true, latency: 20, fail: { status: 503, times: 3 }, reset: 1 };
  const group = (await open(store)) as ZarrGroup;
  const array = (await open(group, "2d.contiguous.i2")) as ZarrArray;
  expect(await canonical(array)).toEqual(expected("consolidated__2d.contiguous.i2"));
});

it("opens a group with spaces in its name", async () => {
  const store = new HttpStore(`${served.server.url}data.zarr`);
  const group = await open(store, "my group with spaces");
  expect(group.kind).toBe("group");
  expect(served.server.requests[0].url).toBe("/data.zarr/my%20group%20with%20spaces/zarr.json");
});

it("cannot list children without consolidated metadata (plain HTTP has no listing)", async () => {
  const store = new HttpStore(`${served.server.url}data.zarr`);
  const root = (await open(store)) as ZarrGroup;
  await expect(children(root)).rejects.toSatisfy((e: unknown) => e instanceof ZarrError && e.code === "UNSUPPORTED");
});
