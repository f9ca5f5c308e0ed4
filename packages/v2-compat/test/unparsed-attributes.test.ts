/**
 * A big `.zattrs` (the threshold is lowered here) is kept as text: the node's metadata is
 * what parsing it gives (dimension names from `_ARRAY_DIMENSIONS` included), opening and
 * listing leave it unparsed, and consolidating reads it whole.
 */
import { listChildren, MemoryStore, open, openArray, openGroup } from "@zarr/core";
import { unparsedAttributes, unparsedAttributesThreshold } from "@zarr/spec";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { consolidateMetadataV2 } from "../src/index.js";
import { fullRegistry } from "./helpers.js";

const ZARRAY = { zarr_format: 2, shape: [2, 3], chunks: [2, 3], dtype: "<i4", compressor: null, filters: null, fill_value: 0, order: "C" };
const ATTRIBUTES = '{"units": "K", "_ARRAY_DIMENSIONS": ["y", "x"], "big": 18446744073709551615, "nested": {"a": [1, {}]}}';

async function v2Store(attributes: string): Promise<MemoryStore> {
  const store = new MemoryStore();
  const put = (key: string, text: string) => store.set(key, new TextEncoder().encode(text));
  await put(".zgroup", '{"zarr_format": 2}');
  await put(".zattrs", attributes);
  await put("t/.zarray", JSON.stringify(ZARRAY));
  await put("t/.zattrs", attributes);
  return store;
}

describe("a big .zattrs", () => {
  const saved = unparsedAttributesThreshold.bytes;
  beforeEach(() => void (unparsedAttributesThreshold.bytes = 16));
  afterEach(() => void (unparsedAttributesThreshold.bytes = saved));

  it("is kept unparsed through open and listing; the dimension names are read from it", async () => {
    const registry = fullRegistry();
    const store = await v2Store(ATTRIBUTES);
    const root = await openGroup(store, "", { registry });
    const array = await openArray(store, "t", { registry });
    expect(unparsedAttributes(root.metadata)).toBe(ATTRIBUTES);
    expect(unparsedAttributes(array.metadata)).toBe(ATTRIBUTES);
    expect(array.dimensionNames).toEqual(["y", "x"]);
    const [entry] = await listChildren(root);
    expect(unparsedAttributes(entry.metadata)).toBe(ATTRIBUTES);
    const expected = { units: "K", _ARRAY_DIMENSIONS: ["y", "x"], big: 18446744073709551615n, nested: { a: [1, {}] } };
    expect(array.attributes).toEqual(expected);
    expect(root.attributes).toEqual(expected);
  });

  it("gives the metadata parsing it whole gives", async () => {
    const registry = fullRegistry();
    for (const attributes of [ATTRIBUTES, '{"_ARRAY_DIMENSIONS": ["only one"], "x": 1}', '{"no_dims": true, "pad": "xxxxxxxx"}', "{ }"]) {
      const store = await v2Store(attributes);
      const kept = await open(store, "t", { registry });
      unparsedAttributesThreshold.bytes = Number.POSITIVE_INFINITY;
      const parsed = await open(store, "t", { registry });
      unparsedAttributesThreshold.bytes = 16;
      expect(unparsedAttributes(parsed.metadata)).toBeUndefined();
      expect({ ...kept.metadata }).toEqual({ ...parsed.metadata });
    }
  });

  it("that is not an object fails as it does parsed", async () => {
    const registry = fullRegistry();
    const store = await v2Store('["not", "an", "object", "at all"]');
    await expect(openArray(store, "t", { registry })).rejects.toThrow(/expected a JSON object of attributes/);
    await put(store, "t/.zattrs", '{"a": [1,]}                          ');
    await expect(openArray(store, "t", { registry })).rejects.toThrow(/not valid JSON \(unexpected "]" at position 9/);
  });

  it("is consolidated whole", async () => {
    const registry = fullRegistry();
    const store = await v2Store(ATTRIBUTES);
    await consolidateMetadataV2(store, "", { registry });
    const zmetadata = JSON.parse(new TextDecoder().decode(await store.get(".zmetadata")));
    expect(zmetadata.metadata["t/.zattrs"]).toEqual(JSON.parse(ATTRIBUTES));
  });
});

function put(store: MemoryStore, key: string, text: string): Promise<void> {
  return store.set(key, new TextEncoder().encode(text));
}
