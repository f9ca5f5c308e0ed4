import { MemoryStore } from "@zarr/core";
import { ZarrError } from "@zarr/spec";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { openReferences, parseReferenceDocument, ReferenceStore, splitTarget, tableSource } from "../src/index.js";

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ZarrError);
    return (error as ZarrError).code;
  }
  return "no error";
};

describe("parseReferenceDocument", () => {
  it("reads version 0: inline text, base64, inline JSON objects, whole files and ranges", () => {
    const refs = parseReferenceDocument({
      ".zgroup": '{"zarr_format":2}',
      ".zattrs": { title: "x" },
      "a/0": "base64:AAEC",
      "a/1": ["s3://b/f.nc"],
      "a/2": ["s3://b/f.nc", 8, 100],
      "a/3": [null, 0, 4],
    }, { target: "s3://b/default.nc" });
    expect(new TextDecoder().decode((refs.get(".zgroup") as { bytes: Uint8Array }).bytes)).toBe('{"zarr_format":2}');
    expect(new TextDecoder().decode((refs.get(".zattrs") as { bytes: Uint8Array }).bytes)).toBe('{"title":"x"}');
    expect(refs.get("a/0")).toEqual({ kind: "inline", bytes: new Uint8Array([0, 1, 2]) });
    expect(refs.get("a/1")).toEqual({ kind: "whole", url: "s3://b/f.nc" });
    expect(refs.get("a/2")).toEqual({ kind: "range", url: "s3://b/f.nc", offset: 8, length: 100 });
    expect(refs.get("a/3")).toEqual({ kind: "range", url: "s3://b/default.nc", offset: 0, length: 4 });
  });

  it("reads version 1: templates in refs, gen over ranges and lists, the last dimension fastest", () => {
    const refs = parseReferenceDocument({
      version: 1,
      templates: { u: "https://host/data/file.nc" },
      refs: { "v/.zarray": "{}", "v/9.9": ["{{u}}", 0, 10] },
      gen: [{ key: "v/{{i}}.{{j}}", url: "{{u}}", offset: "{{ 100 + (i * 3 + j) * 10 }}", length: "10", dimensions: { i: { stop: 2 }, j: [0, 1, 2] } }],
    });
    expect(refs.get("v/9.9")).toEqual({ kind: "range", url: "https://host/data/file.nc", offset: 0, length: 10 });
    expect([...refs.keys()].slice(2)).toEqual(["v/0.0", "v/0.1", "v/0.2", "v/1.0", "v/1.1", "v/1.2"]);
    expect(refs.get("v/1.2")).toEqual({ kind: "range", url: "https://host/data/file.nc", offset: 150, length: 10 });
    const overridden = parseReferenceDocument({ version: 1, templates: { u: "a.nc" }, refs: { k: ["{{u}}"] } }, { templates: { u: "b.nc" } });
    expect(overridden.get("k")).toEqual({ kind: "whole", url: "b.nc" });
  });

  it("refuses bad documents with METADATA_INVALID naming the key", () => {
    const bad: [unknown, string][] = [
      [[1, 2], "expected a JSON object"],
      [{ version: 2 }, "unknown reference spec version 2"],
      [{ k: ["f.nc", -1, 10] }, 'key "k": the offset must be a non-negative integer'],
      [{ k: ["f.nc", 0, 1.5] }, 'key "k": the length must be a non-negative integer'],
      [{ k: ["f.nc", 0] }, 'key "k": expected text, [url] or [url, offset, length]'],
      [{ k: [null, 0, 1] }, 'key "k": the URL is null and no default target was given'],
      [{ k: "base64:!!!" }, 'key "k": the inline value is not valid base64'],
      [{ k: 5 }, 'key "k": expected text'],
      [{ version: 1, refs: [] }, '"refs" must be an object'],
      [{ version: 1, gen: [{ key: "k{{i}}", url: "u", offset: "1", dimensions: { i: { stop: 2 } } }] }, 'needs both "offset" and "length"'],
      [{ version: 1, gen: [{ key: "k{{i}}", url: "u", dimensions: { i: { stop: 2, step: 0 } } }] }, "step must not be 0"],
      [{ version: 1, gen: [{ key: "k{{i}}", url: "{{ nope }}", dimensions: { i: [1] } }] }, 'no variable named "nope"'],
      [{ version: 1, gen: [{ key: "k{{i}}", url: "u", offset: "{{ -i - 1 }}", length: "1", dimensions: { i: [1] } }] }, 'key "k1": the offset must be a non-negative integer'],
    ];
    for (const [doc, message] of bad) {
      let error: unknown;
      try {
        parseReferenceDocument(doc as never, { where: "refs.json" });
      } catch (e) {
        error = e;
      }
      expect(error, JSON.stringify(doc)).toBeInstanceOf(ZarrError);
      expect((error as ZarrError).code).toBe("METADATA_INVALID");
      expect((error as ZarrError).message).toContain('"refs.json"');
      expect((error as ZarrError).message).toContain(message);
    }
  });

  it("stops a generator that makes more references than allowed", () => {
    const doc = { version: 1, gen: [{ key: "k/{{i}}.{{j}}", url: "u", dimensions: { i: { stop: 100000 }, j: { stop: 100000 } } }] };
    expect(code(() => parseReferenceDocument(doc, { maxReferences: 1000 }))).toBe("METADATA_INVALID");
  });

  it("never fails with anything but a coded error on arbitrary JSON", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        for (const doc of [a, { version: 1, refs: a, gen: b }, { k: a }, { version: 1, gen: [{ key: "k{{i}}", url: "u", offset: a, length: b, dimensions: { i: [0, 1] } }] }]) {
          try {
            parseReferenceDocument(doc as never);
          } catch (error) {
            if (!(error instanceof ZarrError)) throw error;
          }
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe("splitTarget", () => {
  it("splits URLs and paths into a folder and a file, relative ones against the document's folder", () => {
    expect(splitTarget("s3://bucket/data/file.nc")).toEqual({ folder: "s3://bucket/data", key: "file.nc" });
    expect(splitTarget("https://host/a%20b/f%231.nc?x=1")).toEqual({ folder: "https://host/a%20b?x=1", key: "f#1.nc" });
    expect(splitTarget("/abs/f.nc")).toEqual({ folder: "/abs", key: "f.nc" });
    expect(splitTarget("f.nc", "s3://bucket/refs/")).toEqual({ folder: "s3://bucket/refs", key: "f.nc" });
    expect(code(() => splitTarget("s3://bucket/dir/"))).toBe("METADATA_INVALID");
  });
});

describe("ReferenceStore reads", () => {
  const files = new MemoryStore();
  const file = Uint8Array.from({ length: 100 }, (_, i) => i);
  const setup = async () => {
    await files.set("f.bin", file);
    const refs = parseReferenceDocument({ ok: ["mem/f.bin", 10, 5], past: ["mem/f.bin", 98, 5], gone: ["mem/nope.bin", 0, 1], whole: ["mem/f.bin"] });
    return new ReferenceStore(tableSource(refs), { openTarget: () => files });
  };

  it("reads ranges, whole files, sizes and sub-ranges", async () => {
    const store = await setup();
    expect(await store.get("ok")).toEqual(file.slice(10, 15));
    expect(await store.getRange("ok", { offset: 1, length: 2 })).toEqual(file.slice(11, 13));
    expect(await store.getRange("ok", { suffixLength: 2 })).toEqual(file.slice(13, 15));
    expect(await store.get("whole")).toEqual(file);
    expect(await store.getSize("ok")).toBe(5);
    expect(await store.getSize("whole")).toBe(100);
    expect(await store.get("absent")).toBeUndefined();
  });

  it("a reference past the end of its file, or into a missing file, is STORE_FAILED naming the key, never short data", async () => {
    const store = await setup();
    await expect(store.get("past")).rejects.toMatchObject({ code: "STORE_FAILED", key: "past", message: expect.stringContaining("reaches past the end") });
    await expect(store.get("gone")).rejects.toMatchObject({ code: "STORE_FAILED", key: "gone", message: expect.stringContaining("does not exist") });
  });

  it("openReferences names a missing or broken document", async () => {
    const docs = new MemoryStore();
    await expect(openReferences(docs, "refs.json", { openTarget: () => files })).rejects.toMatchObject({ code: "NODE_NOT_FOUND" });
    await docs.set("refs.json", new TextEncoder().encode("{not json"));
    await expect(openReferences(docs, "refs.json", { openTarget: () => files })).rejects.toMatchObject({ code: "METADATA_INVALID", key: "refs.json" });
    expect(() => new ReferenceStore(tableSource(new Map()), {} as never)).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
  });
});
