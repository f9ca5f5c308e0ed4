import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MetadataError, scanJson } from "../src/index.js";

/** True when JSON.parse accepts `text`. */
function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** True when scanJson accepts `text`; anything it throws but a MetadataError fails the test. */
function scans(text: string): boolean {
  try {
    scanJson(text, "attributes", "a/zarr.json");
    return true;
  } catch (error) {
    if (!(error instanceof MetadataError)) throw error;
    return false;
  }
}

const VALID = [
  "{}",
  "[]",
  " \t\n\r{ } \t\n\r",
  "0",
  "-0",
  "-0.0",
  "1.5e10",
  "1E-7",
  "2e+3",
  "123456789012345678901234567890",
  "true",
  "false",
  "null",
  '""',
  '"a\\"b\\\\c\\/d\\b\\f\\n\\r\\t"',
  '"\\u00e9\\uD83D\\uDE00\\ud800"',
  '"raw \u007f \u0080 \u2028 é 😀 \ud800 lone"',
  '{"a":[1,{"b":null}],"c":{}}',
  '[[[[]]], {"": ""}, [1, 2, 3]]',
];

/** Texts JSON.parse refuses, one of each kind. */
const INVALID: [string, string][] = [
  ["", "empty text"],
  [" \n", "only whitespace"],
  ["{", "unclosed object"],
  ["[1,2", "unclosed array"],
  ['{"a":1,}', "trailing comma in an object"],
  ["[1,]", "trailing comma in an array"],
  ["[,1]", "leading comma"],
  ['{"a" 1}', "missing colon"],
  ['{"a":1 "b":2}', "missing comma"],
  ["{a:1}", "unquoted name"],
  ["{1:1}", "number as name"],
  ["{'a':1}", "single-quoted name"],
  ["[1]]", "extra closing bracket"],
  ["[1}", "mismatched bracket"],
  ["[}", "empty array closed by a brace"],
  ["{]", "empty object closed by a bracket"],
  ['{"a":1]', "mismatched brace"],
  ["1 2", "two values"],
  ["{} x", "text after the value"],
  ["[1] // comment", "a comment"],
  ["01", "leading zero"],
  ["-01", "leading zero after minus"],
  ["-", "minus alone"],
  ["+1", "plus sign"],
  ["1.", "no digit after the point"],
  [".5", "no digit before the point"],
  ["1e", "no exponent digits"],
  ["1e+", "no exponent digits after the sign"],
  ["0x10", "hexadecimal"],
  ["NaN", "NaN"],
  ["Infinity", "Infinity"],
  ["-Infinity", "-Infinity"],
  ["tru", "cut literal"],
  ["True", "capitalised literal"],
  ["nul", "cut null"],
  ["undefined", "undefined"],
  ['"abc', "unterminated string"],
  ['"a\u0000b"', "raw NUL in a string"],
  ['"a\nb"', "raw line feed in a string"],
  ['"a\tb"', "raw tab in a string"],
  ['"a\u001fb"', "raw unit separator in a string"],
  ['"\\x41"', "unknown escape"],
  ['"\\\'"', "escaped single quote"],
  ['"\\u12"', "short unicode escape"],
  ['"\\u12G4"', "bad hex digit"],
  ['"\\', "backslash at the end"],
  ["'a'", "single-quoted string"],
  ["\u00a0{}", "no-break space"],
  ["\u000b{}", "vertical tab"],
  ["\f{}", "form feed"],
  ["\u2028{}", "line separator"],
  ["\ufeff{}", "byte order mark"],
  ["[1,\u00a02]", "no-break space inside"],
];

describe("scanJson", () => {
  it.each(VALID)("accepts %j as JSON.parse does", (text) => {
    expect(parses(text)).toBe(true);
    expect(scans(text)).toBe(true);
  });

  it.each(INVALID)("refuses %j (%s) as JSON.parse does", (text) => {
    expect(parses(text)).toBe(false);
    expect(scans(text)).toBe(false);
  });

  it("names the key and the position in a MetadataError", () => {
    let error: unknown;
    try {
      scanJson('{"attributes": {"a": 01}}', "attributes", "t/zarr.json");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MetadataError);
    expect((error as MetadataError).code).toBe("METADATA_INVALID");
    expect((error as MetadataError).key).toBe("t/zarr.json");
    expect((error as Error).message).toBe(
      'Invalid metadata in "t/zarr.json" at $: not valid JSON (unexpected "1" at position 22, expected "," or "}")',
    );
  });

  it("gives the span of the top-level member's value: the last one of a repeated name, however it is escaped", () => {
    const text = '{"zarr_format": 3, "attributes": {"a": [1, 2]} , "x": {"attributes": 5}}';
    const span = scanJson(text, "attributes");
    expect(text.slice(span?.start, span?.end)).toBe('{"a": [1, 2]}');
    const repeated = '{"attributes": 1, "attr\\u0069butes" :\n"last"}';
    const last = scanJson(repeated, "attributes");
    expect(repeated.slice(last?.start, last?.end)).toBe('"last"');
    expect(scanJson('{"x": {"attributes": {}}}', "attributes")).toBeUndefined();
    expect(scanJson('[{"attributes": {}}]', "attributes")).toBeUndefined();
    expect(scanJson('"attributes"', "attributes")).toBeUndefined();
  });

  it.each([200_000])("reads arrays and objects nested %i deep", (depth) => {
    const arrays = "[".repeat(depth) + "]".repeat(depth);
    expect(scans(arrays)).toBe(true);
    const objects = `{"attributes":${'{"a":'.repeat(depth)}1${"}".repeat(depth)}}`;
    const span = scanJson(objects, "attributes");
    expect(span).toEqual({ start: 14, end: objects.length - 1 });
    expect(scans("[".repeat(depth) + "]".repeat(depth - 1))).toBe(false);
    expect(scans(`${"[".repeat(depth)}1,${"]".repeat(depth)}`)).toBe(false);
  });

  it("accepts what JSON.stringify writes and finds the member JSON.parse reads", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), fc.constantFrom(0, 1, 2, "\t"), (a, b, indent) => {
        const text = JSON.stringify({ before: a, attributes: b, after: a }, null, indent);
        const span = scanJson(text, "attributes");
        expect(span).toBeDefined();
        expect(JSON.parse(text.slice(span?.start, span?.end))).toEqual(JSON.parse(JSON.stringify(b)));
      }),
    );
  });

  /** Characters that matter to JSON's grammar, and a few that do not belong in it. */
  const JSON_CHAR = fc.constantFrom(..."{}[]\",:0123456789-+.eE \t\n\rtruefalsnul\\/bfu\u0000\u001f\u00a0\f\v\u2028x'");

  it("agrees with JSON.parse on random texts", () => {
    fc.assert(
      fc.property(fc.array(JSON_CHAR, { maxLength: 24 }), (chars) => {
        const text = chars.join("");
        expect(scans(text)).toBe(parses(text));
      }),
      { numRuns: 20_000 },
    );
  });

  it("agrees with JSON.parse on JSON texts with a few characters changed", () => {
    const mutation = fc.record({ at: fc.nat(), kind: fc.constantFrom("insert", "delete", "replace"), char: JSON_CHAR });
    fc.assert(
      fc.property(fc.jsonValue(), fc.array(mutation, { minLength: 1, maxLength: 3 }), (value, mutations) => {
        let text = JSON.stringify({ attributes: value });
        for (const { at, kind, char } of mutations) {
          const i = at % (text.length + 1);
          text = text.slice(0, i) + (kind === "delete" ? "" : char) + text.slice(kind === "insert" ? i : i + 1);
        }
        expect(scans(text)).toBe(parses(text));
      }),
      { numRuns: 5_000 },
    );
  });
});
