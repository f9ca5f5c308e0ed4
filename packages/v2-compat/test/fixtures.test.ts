/** Every array of the zarr-python v2 fixtures (directory and both zip copies) reads to its expected values. */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { get, openArray, openGroup, toCanonicalJson } from "@zarr/core";
import type { Store } from "@zarr/spec";
import { FileSystemStore } from "@zarr/store-fs";
import { ZipStore } from "@zarr/store-zip";
import { describe, expect, it } from "vitest";
import { fixture, fullRegistry } from "./helpers.js";

const expectedDir = fixture("expected", "v2");
const names = readdirSync(expectedDir).filter((f) => f.endsWith(".json")).map((f) => f.slice(0, -5));

const stores: [string, () => Store][] = [
  ["directory", () => new FileSystemStore(fixture("v2", "data.zarr"), { readOnly: true })],
  ["zip (from within)", () => new ZipStore(new FileSystemStore(fixture("v2"), { readOnly: true }), "data.zipped_from_within.zarr.zip")],
  ["zip (from parent)", () => new ZipStore(new FileSystemStore(fixture("v2"), { readOnly: true }), "data.zipped_from_parent.zarr.zip")],
];

describe.each(stores)("zarr-python v2 fixtures: %s", (_, makeStore) => {
  const store = makeStore();
  const registry = fullRegistry();
  for (const name of names) {
    it(`reads ${name}`, async () => {
      const expected = JSON.parse(readFileSync(join(expectedDir, `${name}.json`), "utf8"));
      const arr = await openArray(store, name.replace(/__/g, "/"), { registry });
      expect(arr.zarrFormat).toBe(2);
      expect(arr.format?.name).toBe("zarr-v2");
      const json = toCanonicalJson(await get(arr));
      expect({ shape: json.shape, values: json.values }).toEqual(expected);
    });
  }

  it("opens the root from its .zmetadata, with the group attributes", async () => {
    const root = await openGroup(store, "", { registry });
    expect(root.zarrFormat).toBe(2);
    expect(root.attributes).toEqual({ answer: 42 });
    expect(root.consolidated?.has("1d.contiguous.S7")).toBe(true);
    expect(root.consolidated?.get("my group with spaces")?.node_type).toBe("group");
  });
});
