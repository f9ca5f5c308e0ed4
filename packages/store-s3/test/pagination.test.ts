import { afterAll, beforeAll, expect, it } from "vitest";
import type { S3Store } from "../src/index.js";
import { bytesOf, collect, startS3, type TestS3 } from "./helpers.js";

// More keys in one prefix than ListObjectsV2 (MaxKeys 1000) and DeleteObjects (1000 keys)
// take in one request.
const COUNT = 1050;
const chunkKeys = Array.from({ length: COUNT }, (_, i) => `big/c/${i}`);

let s3: TestS3;
let store: S3Store;
beforeAll(async () => {
  s3 = await startS3(["pages"]);
  store = s3.store({ bucket: "pages", prefix: "p" });
  await s3.putMany("pages", chunkKeys.map((k) => `p/${k}`), bytesOf(3));
  for (const key of ["big/zarr.json", "big/sub/zarr.json", "other/zarr.json"]) await store.set(key, bytesOf(1));
  expect(await store.get(`big/c/${COUNT - 1}`)).toEqual(bytesOf(3));
});
afterAll(() => s3.close());

const listRequests = () => s3.seen.filter((r) => r.method === "GET" && r.url.includes("list-type=2"));

it("list and listPrefix page past 1000 keys with continuation tokens", async () => {
  s3.reset();
  const keys = await collect(store.list());
  expect(keys).toHaveLength(COUNT + 3);
  expect(new Set(keys)).toEqual(new Set([...chunkKeys, "big/zarr.json", "big/sub/zarr.json", "other/zarr.json"]));
  const requests = listRequests();
  expect(requests).toHaveLength(2);
  expect(requests[0].url).not.toContain("continuation-token");
  expect(requests[1].url).toContain("continuation-token");
  expect(await collect(store.listPrefix("big/s"))).toEqual(["big/sub/zarr.json"]);
});

it("listDir pages too: all 1050 keys of one level, and the level above", async () => {
  s3.reset();
  const level = await store.listDir("big/c/");
  expect(level.prefixes).toEqual([]);
  expect(level.keys).toEqual([...chunkKeys.map((k) => k.slice("big/c/".length))].sort());
  expect(listRequests()).toHaveLength(2);
  expect(await store.listDir("big/")).toEqual({ keys: ["zarr.json"], prefixes: ["c", "sub"] });
});

it("deletePrefix deletes every key past 1000 in batches of at most 1000, nothing else", async () => {
  s3.reset();
  await store.deletePrefix("big/");
  const deletes = s3.seen.filter((r) => r.method === "POST" && r.url.includes("delete"));
  // 1052 keys: a page of 1000 and a page of 52, one DeleteObjects each (plus any retries
  // of s3rver's occasional 500, see helpers.ts).
  expect(deletes.length).toBeGreaterThanOrEqual(2);
  expect(listRequests().length).toBeGreaterThanOrEqual(2);
  expect(listRequests()[1].url).toContain("start-after=");
  expect(await collect(store.list())).toEqual(["other/zarr.json"]);
});
