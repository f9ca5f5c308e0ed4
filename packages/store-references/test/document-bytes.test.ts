import { ZarrError } from "@zarr/spec";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chunkKey, splitChunkKey } from "../src/chunk-keys.js";
import { parseReferenceBytes, parseReferenceDocument, type Reference } from "../src/index.js";

const utf8 = new TextEncoder();

/** What a parse gives: the sorted entries, or the error's code and message. */
function outcome(parse: () => ReadonlyMap<string, Reference>): unknown {
  try {
    return [...parse()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  } catch (error) {
    if (!(error instanceof ZarrError)) throw error;
    return { code: error.code, message: error.message };
  }
}

/** Both readings of one document text: from its bytes in place, and from JSON.parse. */
function both(text: string, options: { target?: string; maxReferences?: number } = {}) {
  return [outcome(() => parseReferenceBytes(utf8.encode(text), { ...options, where: "refs.json" })), outcome(() => parseReferenceDocument(JSON.parse(text.replace(/^\ufeff/, "")), { ...options, where: "refs.json" }))];
}

describe("splitChunkKey", () => {
  const split = (key: string) => {
    const bytes = utf8.encode(key);
    const out = chunkKey();
    if (!splitChunkKey(bytes, 0, bytes.length, out)) return undefined;
    return [new TextDecoder().decode(bytes.subarray(0, out.prefixEnd)), String.fromCharCode(out.separator), Array.from(out.coords.subarray(0, out.ndim))];
  };

  it("splits a key into its prefix and the canonical coordinates it ends with", () => {
    expect(split("v/0.1")).toEqual(["v/", ".", [0, 1]]);
    expect(split("v/c/0/12/3")).toEqual(["v/c/", "/", [0, 12, 3]]);
    expect(split("v/1/2.3")).toEqual(["v/1/", ".", [2, 3]]);
    expect(split("7")).toEqual(["", ".", [7]]);
    expect(split("a.b.1")).toEqual(["a.b.", ".", [1]]);
    expect(split("v/1.02")).toEqual(undefined);
    expect(split("v/01.2")).toEqual(["v/01.", ".", [2]]);
    expect(split("v/1234567890")).toEqual(undefined);
    expect(split("v/.zarray")).toEqual(undefined);
    expect(split("")).toEqual(undefined);
  });

  it("the prefix and coordinates give back exactly the key", () => {
    const keyPart = fc.oneof(fc.constantFrom("0", "1", "12", "007", "999999999", "1000000000", ".", "/", "c", "v", "é"), fc.string({ maxLength: 3 }));
    fc.assert(
      fc.property(fc.array(keyPart, { maxLength: 12 }), (parts) => {
        const key = parts.join("");
        const s = split(key);
        if (s !== undefined) expect(s[0] + (s[2] as number[]).join(s[1] as string)).toBe(key);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("parseReferenceBytes", () => {
  it("reads what parseReferenceDocument reads from the parsed document", () => {
    const doc = {
      ".zgroup": '{"zarr_format":2}',
      "v/.zarray": { shape: [4] },
      "v/0": ["f.nc", 0, 10],
      "v/1": ["f.nc", 10, 10],
      "v/2": ["g\\u00e9.nc", 20, 10],
      "v/3": ["f.nc"],
      "v/4": [null, 1e2, 5],
      "v/5": "base64:AAEC",
      "v\\u002f6": ["f.nc", 0, 1],
      "w/c/0/0": ["f.nc", 12345678901234, 1],
      "w/c/0/1": ["f.nc", 0, 0],
      "x/01": ["f.nc", 1, 1],
      "x/9.9": ["f.nc", 1, 1],
    };
    for (const text of [JSON.stringify(doc), JSON.stringify(doc, null, 2), `\ufeff ${JSON.stringify(doc)}\n`]) {
      const [bytes, parsed] = both(text, { target: "t.nc" });
      expect(bytes).toEqual(parsed);
      expect((bytes as unknown[]).length).toBe(13);
    }
    const v1 = JSON.stringify({ version: 1, templates: { u: "s3://b/f.nc" }, refs: { "a/0": ["{{u}}", 0, 1], "a/1": ["{{ u }}", 1, 1] } });
    expect(both(v1)[0]).toEqual([["a/0", { kind: "range", url: "s3://b/f.nc", offset: 0, length: 1 }], ["a/1", { kind: "range", url: "s3://b/f.nc", offset: 1, length: 1 }]]);
    expect(both(v1)[0]).toEqual(both(v1)[1]);
    const unknown = JSON.stringify({ version: 1, refs: { "a/0": ["{{x}}", 0, 1] } });
    expect(both(unknown)[0]).toEqual(expect.objectContaining({ message: expect.stringContaining('at key "a/0": Cannot render the reference template "{{x}}": no variable named "x"') }));
    expect(both(unknown)[0]).toEqual(both(unknown)[1]);
  });

  it("keeps a dense index for a grid of chunk keys and names scattered ones, reading both alike", () => {
    const refs: Record<string, unknown> = { "a/.zarray": "{}" };
    for (let i = 0; i < 30; i++) for (let j = 0; j < 20; j++) refs[`a/${i}.${j}`] = ["f.nc", (i * 20 + j) * 8, 8];
    refs["a/5.5"] = ["g.nc", 1, 2]; // set again: the last one counts
    refs["b/0"] = ["f.nc", 0, 1];
    refs["b/99999"] = ["f.nc", 9, 1]; // far apart: not dense
    const text = JSON.stringify(refs).replace('"b/0"', '"a/5.5":["g.nc",3,4],"b/0"');
    const table = parseReferenceBytes(utf8.encode(text));
    expect(table.size).toBe(603);
    expect(table.get("a/5.5")).toEqual({ kind: "range", url: "g.nc", offset: 3, length: 4 });
    expect(table.get("a/29.19")).toEqual({ kind: "range", url: "f.nc", offset: 599 * 8, length: 8 });
    for (const absent of ["a/30.0", "a/0.20", "a/0", "a/0.0.0", "c/0", "a/00.1", "b/1"]) expect(table.get(absent), absent).toBeUndefined();
    expect(table.has("b/99999")).toBe(true);
    expect([...table.keys()].slice(0, 4)).toEqual(["a/.zarray", "b/0", "b/99999", "a/0.0"]);
    expect(both(text)[0]).toEqual(both(text)[1]);
  });

  it("refuses text that is not JSON exactly when JSON.parse does, with METADATA_INVALID naming the document", () => {
    const valid = '{"a/0": ["f.nc", 0, 10], "a/1": ["f\\"x.nc", 10, 10], "b": [null, 1.5e3, -0], "c": {"d": [true, false, null, "é\\u00e9"]}}';
    fc.assert(
      fc.property(fc.nat(valid.length), fc.option(fc.nat(valid.length), { freq: 2 }), fc.constantFrom("", " ", "]", "}", ",", '"', "\\", "0", "-", "e", "\u0001", "\ud800", "n", "[", "{"), (at, cut, insert) => {
        const text = (valid.slice(0, at) + insert + valid.slice(at)).slice(0, cut === null ? undefined : Math.max(cut, at));
        let parsed = true;
        try {
          JSON.parse(text);
        } catch {
          parsed = false;
        }
        try {
          parseReferenceBytes(utf8.encode(text), { where: "refs.json", target: "t" });
          expect(parsed, text).toBe(true);
        } catch (error) {
          expect(error).toBeInstanceOf(ZarrError);
          if (!parsed) expect((error as ZarrError).message, text).toContain('"refs.json"');
          if (!parsed) expect((error as ZarrError).message, text).toContain("not valid JSON");
        }
      }),
      { numRuns: 3000 },
    );
    for (const bad of [[0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d], [0x7b, 0x22, 0xc3, 0x22, 0x3a, 0x31, 0x7d], [0x7b, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x3a, 0x31, 0x7d]]) {
      expect(() => parseReferenceBytes(Uint8Array.from(bad), { where: "refs.json" })).toThrow(expect.objectContaining({ code: "METADATA_INVALID", key: "refs.json" }));
    }
  });

  it("gives the same references or the same coded error as the parsed document, for any document", () => {
    const key = fc.oneof(fc.constantFrom("a/0", "a/1", "a/0.1", "a/c/2/3", ".zgroup", "version", "refs", "b/007", "b/10"), fc.string({ maxLength: 6 }));
    const count = fc.oneof(fc.nat(), fc.constantFrom(-1, 1.5, 2 ** 53, 1e21, "12", "x"), fc.integer());
    const value = fc.oneof(
      fc.tuple(fc.oneof(fc.constantFrom("f.nc", "s3://b/f.nc", ""), fc.constant(null), fc.string({ maxLength: 4 })), count, count),
      fc.tuple(fc.constantFrom("f.nc", null)),
      fc.constantFrom("base64:AAEC", "base64:!", '{"zarr_format":2}'),
      fc.jsonValue({ maxDepth: 2 }),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(key, value), { maxLength: 12 }), fc.boolean(), fc.constantFrom(undefined, "t.nc"), fc.constantFrom(undefined, 3), (members, wrap, target, max) => {
        const object = Object.fromEntries(members);
        const text = JSON.stringify(wrap ? { version: 1, refs: object } : object, null, wrap ? 1 : undefined);
        const [bytes, parsed] = both(text, { target, maxReferences: max });
        expect(bytes).toEqual(parsed);
      }),
      { numRuns: 1500 },
    );
  });

  it("holds sets larger than a page of rows", () => {
    const parts = ['{"v/.zarray": "{}"'];
    for (let i = 0; i < 70_000; i++) parts.push(`"v/${i}": ["f${i % 3}.nc", ${i * 10}, ${i % 7}]`, `"w/${i * 1000}": "x${i}"`);
    const table = parseReferenceBytes(utf8.encode(`${parts.join(",")}}`));
    expect(table.size).toBe(140_001);
    for (const i of [0, 65_535, 65_536, 69_999]) {
      expect(table.get(`v/${i}`)).toEqual({ kind: "range", url: `f${i % 3}.nc`, offset: i * 10, length: i % 7 });
      expect(new TextDecoder().decode((table.get(`w/${i * 1000}`) as { bytes: Uint8Array }).bytes)).toBe(`x${i}`);
    }
    expect(table.get("v/70000")).toBeUndefined();
  });

  it("bounds the number of references", () => {
    const refs: Record<string, unknown> = {};
    for (let i = 0; i < 10; i++) refs[`v/${i}`] = ["f", i, 1];
    expect(() => parseReferenceBytes(utf8.encode(JSON.stringify(refs)), { maxReferences: 9 })).toThrow(expect.objectContaining({ code: "METADATA_INVALID" }));
    expect(parseReferenceBytes(utf8.encode(JSON.stringify(refs)), { maxReferences: 10 }).size).toBe(10);
  });
});
