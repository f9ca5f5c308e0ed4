import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { get, openArray, toCanonicalJson } from "@zarr/core";
import { describe, expect, it } from "vitest";
import { FIXTURES, loadDirectory, registryWith, storeWithoutRanges } from "./helpers.js";

const root = join(FIXTURES, "v3/data.zarr");
const names = readdirSync(root).filter((n) => n.includes("sharded")).sort();

describe("zarr-python 3 sharded fixtures", () => {
  it("has the sharded arrays", () => {
    expect(names.length).toBeGreaterThanOrEqual(15);
  });
  for (const rangeReads of [true, false]) {
    for (const name of names) {
      it(`reads ${name} (${rangeReads ? "range reads" : "whole shards"})`, async () => {
        const store = loadDirectory(root);
        const registry = registryWith();
        const arr = await openArray(rangeReads ? store : storeWithoutRanges(store), name, { registry });
        const expected = JSON.parse(readFileSync(join(FIXTURES, "expected/v3", `${name}.json`), "utf8"));
        const data = await get(arr);
        const got = toCanonicalJson(data);
        expect(got.shape).toEqual(expected.shape);
        expect(got.values).toEqual(expected.values);
      });
    }
  }
});
