import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { jsonFromInput, MetadataError, parseJson, parseJsonBytes, stringifyJson } from "../src/index.js";

describe("parseJson", () => {
  it("keeps 64-bit integers exact", () => {
    const doc = parseJson('{"a": 18446744073709551615, "b": -9223372036854775808, "c": 9007199254740991, "d": 1.5e300, "e": [12345678901234567890]}');
    expect(doc).toEqual({ a: 18446744073709551615n, b: -9223372036854775808n, c: 9007199254740991, d: 1.5e300, e: [12345678901234567890n] });
  });
  /** What parseJson should return for `v`: unsafe integers as bigint, everything else as JSON.parse gives it. */
  const exact = (v: unknown): unknown => {
    if (typeof v === "number" && Number.isInteger(v) && !Number.isSafeInteger(v) && /^-?\d+$/.test(JSON.stringify(v))) {
      return BigInt(JSON.stringify(v));
    }
    if (Array.isArray(v)) return v.map(exact);
    if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, exact(x)]));
    return v;
  };
  it("agrees with JSON.parse on ordinary documents", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const text = JSON.stringify(v);
        // A long integer alongside the value forces the exact parser.
        const wrapped = parseJson(`[${text}, 12345678901234567890]`) as unknown[];
        expect(wrapped[0]).toEqual(exact(JSON.parse(text)));
      }),
    );
  });
  it("round trips through stringifyJson", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 64n - 1n }), (v, big) => {
        const doc = exact({ v: JSON.parse(JSON.stringify(v)), big: Number.isSafeInteger(Number(big)) ? Number(big) : big }) as never;
        expect(parseJson(stringifyJson(doc))).toEqual(doc);
      }),
    );
  });
  it("formats like JSON.stringify with indentation", () => {
    const v = { a: [1, { b: "x" }], c: {}, d: [] };
    expect(stringifyJson(v)).toBe(JSON.stringify(v, null, 2));
    expect(stringifyJson(v, 0)).toBe(JSON.stringify(v));
  });
  it("reports syntax errors as MetadataError with the key", () => {
    for (const bad of ["{", '{"a": 12345678901234567890', "[1,]", '"abc', "nul", "{} x"]) {
      const e = (() => {
        try {
          parseJson(bad, "g/zarr.json");
        } catch (err) {
          return err;
        }
      })();
      expect(e).toBeInstanceOf(MetadataError);
      expect((e as MetadataError).message).toContain('"g/zarr.json"');
    }
  });
  it("does not let __proto__ keys change prototypes", () => {
    const v = parseJson('{"__proto__": {"x": 1}, "n": 12345678901234567890}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.keys(v)).toContain("__proto__");
  });
  it("refuses non-finite numbers when writing", () => {
    expect(() => stringifyJson({ x: Number.NaN })).toThrow(/non-finite/);
  });
});

describe("jsonFromInput", () => {
  it("drops undefined-valued properties at any depth, inside arrays too", () => {
    const input = { a: undefined, b: 1, c: { d: undefined, e: [{ f: undefined, g: "x" }] }, h: null };
    const out = jsonFromInput(input);
    expect(out).toEqual({ b: 1, c: { e: [{ g: "x" }] }, h: null });
    expect(Object.keys(out as object)).toEqual(["b", "c", "h"]);
  });
  it("copies: later changes to the input do not reach the result", () => {
    const input = { list: [1, 2], nested: { a: 1 } };
    const out = jsonFromInput(input) as { list: number[]; nested: { a: number } };
    input.list.push(3);
    input.nested.a = 2;
    expect(out).toEqual({ list: [1, 2], nested: { a: 1 } });
  });
  it("returns scalars, bigints and non-plain objects as they are", () => {
    expect(jsonFromInput(5)).toBe(5);
    expect(jsonFromInput(2n ** 64n)).toBe(2n ** 64n);
    expect(jsonFromInput(null)).toBe(null);
    const map = new Map();
    expect(jsonFromInput(map as never)).toBe(map);
  });
});

describe("parseJsonBytes", () => {
  it("says a document too long for a JavaScript string cannot be held, not that it is not UTF-8", () => {
    // What Node throws past V8's string limit (allocating 512 MiB here would be the real thing).
    const tooLong = Object.assign(new Error("Cannot create a string longer than 0x1fffffe8 characters"), { code: "ERR_STRING_TOO_LONG" });
    const spy = vi.spyOn(TextDecoder.prototype, "decode").mockImplementation(() => {
      throw tooLong;
    });
    try {
      const error = (() => {
        try {
          parseJsonBytes(new Uint8Array(8), "a/zarr.json");
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(MetadataError);
      expect((error as MetadataError).code).toBe("METADATA_INVALID");
      expect((error as MetadataError).message).toMatch(/"a\/zarr\.json".*Cannot create a string longer than 0x1fffffe8 characters/);
      expect((error as MetadataError).message).not.toMatch(/UTF-8/i);
    } finally {
      spy.mockRestore();
    }
    expect(() => parseJsonBytes(new Uint8Array([0xff]), "b")).toThrow(/"b".*not valid for encoding utf-8/);
  });
});
