/** createArray takes the chunk key encoding in its short form and in the metadata form, and refuses any other shape. */
import { describe, expect, it } from "vitest";
import { createArray, MemoryStore, readNodeMetadata, set } from "../src/index.js";
import { chunkKeyEncodingOption } from "../src/key-encoding-option.js";

describe("chunkKeyEncoding option", () => {
  it("accepts the metadata form and writes the separator it names", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "a", { shape: [4, 4], chunkShape: [2, 2], dataType: "int8", chunkKeyEncoding: { name: "default", configuration: { separator: "." } } });
    await set(arr, null, 1);
    const meta = await readNodeMetadata(store, "a");
    expect(meta && "chunk_key_encoding" in meta ? meta.chunk_key_encoding : undefined).toEqual({ name: "default", configuration: { separator: "." } });
    expect(store.keys().filter((k) => k.startsWith("a/c")).sort()).toEqual(["a/c.0.0", "a/c.0.1", "a/c.1.0", "a/c.1.1"]);
  });

  it("keeps the short form, and the defaults of each name", () => {
    expect(chunkKeyEncodingOption({ name: "v2", separator: "/" })).toEqual({ name: "v2", separator: "/" });
    expect(chunkKeyEncodingOption({ name: "v2" })).toEqual({ name: "v2" });
    expect(chunkKeyEncodingOption({ name: "v2", configuration: {} })).toEqual({ name: "v2" });
    expect(chunkKeyEncodingOption(undefined)).toBeUndefined();
  });

  it("refuses an unknown shape with INVALID_ARGUMENT instead of ignoring it, before writing anything", async () => {
    const bad: unknown[] = [
      "default",
      { name: "nested" },
      { name: "default", separator: "-" },
      { name: "default", configuration: { separator: "|" } },
      { name: "default", configuration: { sep: "." } },
      { name: "default", separator: ".", configuration: { separator: "." } },
      { name: "default", sep: "." },
    ];
    for (const b of bad) {
      const store = new MemoryStore();
      await expect(createArray(store, "a", { shape: [2], dataType: "int8", chunkKeyEncoding: b as never }), JSON.stringify(b)).rejects.toMatchObject({
        code: "INVALID_ARGUMENT",
        message: expect.stringContaining("chunkKeyEncoding"),
      });
      expect(store.keys()).toEqual([]);
    }
  });
});
