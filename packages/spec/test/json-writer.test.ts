import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type JsonValue, jsonFromInput, jsonText, jsonTextPieces, stringifyJson, ZarrError } from "../src/index.js";

/** `depth` arrays or objects nested in each other, as compact JSON text. */
function deepText(depth: number, kind: "array" | "object"): string {
  return kind === "array" ? "[".repeat(depth) + "]".repeat(depth) : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("jsonTextPieces", () => {
  it("writes what JSON.stringify writes, compact and indented, in pieces of any size", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.constantFrom(0, 1, 2, 4), fc.integer({ min: 1, max: 64 }), (v, indent, pieceChars) => {
        const value = JSON.parse(JSON.stringify(v)) as JsonValue; // -0 becomes 0, as JSON.stringify writes it
        const pieces = [...jsonTextPieces(value, { indent, pieceChars })];
        expect(pieces.join("")).toBe(JSON.stringify(value, null, indent));
      }),
    );
  });
  it("hands out pieces of about pieceChars characters, splitting long strings", () => {
    const pieces = [...jsonTextPieces({ s: "x".repeat(1000), n: [1, 2, 3] }, { pieceChars: 64 })];
    expect(pieces.length).toBeGreaterThan(10);
    for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(64 + 16);
  });
  it("never splits a surrogate pair between string pieces", () => {
    const s = "a😀".repeat(500);
    for (const pieceChars of [1, 2, 3, 7, 64]) {
      const pieces = [...jsonTextPieces(s, { pieceChars })];
      expect(pieces.join("")).toBe(JSON.stringify(s));
      expect(pieces.join("")).not.toMatch(/\\ud/);
    }
  });
  it.each([5_000, 200_000])("writes arrays and objects nested %i deep", (depth) => {
    for (const kind of ["array", "object"] as const) {
      const text = deepText(depth, kind);
      const value = JSON.parse(text) as JsonValue;
      expect(jsonText(value)).toBe(text);
      // Indented: only the first JSON_INDENT_DEPTH levels get lines, so the text stays linear in the depth.
      const indented = stringifyJson(value, 2);
      expect(indented.length).toBeLessThan(text.length + 64 * 64 * 4);
      expect(jsonText(JSON.parse(indented) as JsonValue)).toBe(text);
    }
  });
  it("indents the first indentDepth levels and writes deeper ones compact", () => {
    expect(jsonText({ a: { b: [1, { c: 2 }] } }, { indent: 2, indentDepth: 2 })).toBe('{\n  "a": {\n    "b": [1,{"c":2}]\n  }\n}');
  });
  it("writes bigints exactly and numbers through numberText", () => {
    expect(jsonText([18446744073709551615n, -0, 1.5], { numberText: (n) => (Object.is(n, -0) ? "-0.0" : String(n)) })).toBe(
      "[18446744073709551615,-0.0,1.5]",
    );
  });
  it("refuses a value that contains itself, non-finite numbers and non-JSON values with INVALID_ARGUMENT", () => {
    const cyclic: JsonValue[] = [1];
    cyclic.push({ back: cyclic });
    const shared = { x: 1 };
    expect(jsonText([shared, shared])).toBe('[{"x":1},{"x":1}]'); // shared, not cyclic
    for (const bad of [cyclic, [Number.NaN], { x: Number.POSITIVE_INFINITY }, [undefined as unknown as JsonValue]]) {
      const error = thrown(() => jsonText(bad));
      expect(error).toBeInstanceOf(ZarrError);
      expect((error as ZarrError).code).toBe("INVALID_ARGUMENT");
    }
  });
});

describe("jsonFromInput at depth", () => {
  it.each([5_000, 200_000])("copies values nested %i deep", (depth) => {
    for (const kind of ["array", "object"] as const) {
      const text = deepText(depth, kind);
      const input = JSON.parse(text) as JsonValue;
      const copy = jsonFromInput(input);
      expect(copy === input).toBe(false);
      expect(jsonText(copy)).toBe(text);
    }
  });
  it("refuses a value that contains itself", () => {
    const cyclic: Record<string, unknown> = { a: [1] };
    (cyclic.a as unknown[]).push(cyclic);
    const error = thrown(() => jsonFromInput(cyclic as never));
    expect(error).toBeInstanceOf(ZarrError);
    expect((error as ZarrError).code).toBe("INVALID_ARGUMENT");
  });
});
