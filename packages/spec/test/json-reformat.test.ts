import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type JsonTextOptions, jsonText, jsonTextPieces, parseJson, reformatJsonPieces, ZarrError } from "../src/index.js";

/** The CLI's number text: negative zero keeps its sign. */
const cliNumberText = (n: number) => (Object.is(n, -0) ? "-0.0" : String(n));

/** What jsonTextPieces writes for the parsed text, and what reformatJsonPieces writes for the text itself. */
function both(text: string, options: JsonTextOptions = {}): [string, string] {
  return [jsonText(parseJson(text), options), [...reformatJsonPieces(text, options)].join("")];
}

/** Strings of any UTF-16 code units: lone surrogates, controls, quotes and backslashes included. */
const anyString = fc
  .array(fc.oneof(fc.integer({ min: 0, max: 0xffff }), fc.constantFrom(0x22, 0x5c, 0x0a, 0xd83d, 0xde00)), { maxLength: 40 })
  .map((codes) => String.fromCharCode(...codes));

/** JSON values with such strings, as keys too, and numbers of every kind. */
const { value: anyValue } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom(null, true, false, 0, -0, 1e21, 5e-324, -1.5, 2 ** 53, -(2 ** 63)),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    anyString,
    fc.array(tie("value"), { maxLength: 5 }),
    fc.dictionary(anyString, tie("value"), { maxKeys: 5 }),
  ),
}));

/** `value` as JSON text, spaced out with `space` (integers beyond 2^53 come out as digits, which parseJson reads as bigints). */
function textOf(value: unknown, space: string | number, escapeAll = false): string {
  const text = JSON.stringify(value, null, space);
  if (!escapeAll) return text;
  // Every character of every string as a \uXXXX escape: the same value, spelled as JSON.stringify never spells it.
  const escaped = (s: string) => {
    const decoded = JSON.parse(s) as string;
    return Array.from({ length: decoded.length }, (_, i) => `\\u${decoded.charCodeAt(i).toString(16).padStart(4, "0")}`);
  };
  return text.replace(/"(?:[^"\\]|\\.)*"/g, (s) => `"${escaped(s).join("")}"`);
}

describe("reformatJsonPieces", () => {
  it("writes what jsonTextPieces writes for the parsed text, at any indentation, depth and piece size", () => {
    fc.assert(
      fc.property(
        anyValue,
        fc.constantFrom(0, 1, "\t", " \n "),
        fc.constantFrom(0, 2, 4),
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 1, max: 40 }),
        fc.boolean(),
        (value, space, indent, indentDepth, pieceChars, escapeAll) => {
          const text = textOf(value, space, escapeAll);
          const options = { indent, indentDepth, numberText: cliNumberText, pieceChars };
          const [parsed, reformatted] = both(text, options);
          expect(reformatted).toBe(parsed);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it.each([
    ["numbers", "[0, -0, -0.0, 1.0, 1e21, 1E-7, 2.50e+3, 18446744073709551615, -9223372036854775808, 9007199254740992, 9007199254740991]"],
    ["escapes", '{"a\\tb": "q\\"b\\\\s\\/\\b\\f\\n\\r\\t\\u0001\\u00e9\\u2028"}'],
    ["surrogates", '["\\ud83d\\ude00", "😀", "\\ud800", "\\udc00x", "\\uD83D\\uDE00"]'],
    ["unicode", '{"é": "日本語", "emoji 🌍": ["ü", "\u007f\u0080"]}'],
    ["empty containers", '{"a": {}, "b": [], "c": [{}, []], "d": { }, "e": [ ]}'],
    ["literals", "[true, false, null]"],
  ])("writes %s as the parsed path does", (_name, text) => {
    for (const indent of [0, 2]) {
      for (const numberText of [undefined, cliNumberText]) {
        const [parsed, reformatted] = both(text, { indent, numberText });
        expect(reformatted).toBe(parsed);
      }
    }
  });

  it("writes the CLI's -0.0 and keeps unsafe integers' digits", () => {
    expect([...reformatJsonPieces("[-0, 18446744073709551615, -0.0]", { numberText: cliNumberText })].join("")).toBe(
      "[-0.0,18446744073709551615,-0.0]",
    );
  });

  it("refuses non-finite numbers as jsonTextPieces does", () => {
    expect(() => [...reformatJsonPieces("[1e400]")]).toThrow(ZarrError);
    expect(() => jsonText(parseJson("[1e400]"))).toThrow(ZarrError);
  });

  it.each([5_000, 200_000])("writes containers nested %i deep, compact beyond indentDepth", (depth) => {
    const text = `{"a":${"[".repeat(depth)}{"b":1}${"]".repeat(depth)}}`;
    const [parsed, reformatted] = both(text, { indent: 2 });
    expect(reformatted).toBe(parsed);
    expect(reformatted.length).toBeLessThan(text.length + 64 * 64 * 4);
  });

  it("writes a value at `level` as jsonTextPieces writes it inside that many containers", () => {
    fc.assert(
      fc.property(anyValue, fc.integer({ min: 1, max: 3 }), fc.constantFrom(1, 2, 3, 64), (value, level, indentDepth) => {
        const text = textOf(value, 0);
        // Wrapped in `level` arrays and written whole, the value's text sits between the brackets.
        const wrapped = jsonText(parseJson("[".repeat(level) + text + "]".repeat(level)), { indent: 2, indentDepth });
        const inner = [...reformatJsonPieces(text, { indent: 2, indentDepth, level })].join("");
        const open = [...Array(level).keys()].map((l) => (indentDepth <= l ? "[" : `[\n${"  ".repeat(l + 1)}`)).join("");
        const close = [...Array(level).keys()].reverse().map((l) => (indentDepth <= l ? "]" : `\n${"  ".repeat(l)}]`)).join("");
        expect(open + inner + close).toBe(wrapped);
      }),
      { numRuns: 500 },
    );
  });

  it("hands out bounded pieces that never split a surrogate pair, also in long strings with escapes", () => {
    const long = `{"s": "${"a😀\\n\\ud83d\\ude00\\\\".repeat(3000)}", "t": "${"x".repeat(10_000)}"}`;
    for (const pieceChars of [1, 2, 7, 64, 1000]) {
      const pieces = [...reformatJsonPieces(long, { pieceChars })];
      expect(pieces.join("")).toBe(jsonText(parseJson(long)));
      expect(pieces.length).toBeGreaterThan(40_000 / pieceChars / 2);
      for (const piece of pieces) {
        // An escape (6 characters at most) per character of a window, plus the token after it.
        expect(piece.length).toBeLessThanOrEqual(6 * pieceChars + 16);
        expect(Buffer.from(piece, "utf8").toString("utf8")).toBe(piece); // no lone surrogate: no half pair
      }
    }
  });

  it("keeps the order of the text (where JSON.parse puts integer-like keys first) and repeated names", () => {
    const text = '{"b": 1, "2": 2, "b": 3}';
    expect([...reformatJsonPieces(text)].join("")).toBe('{"b":1,"2":2,"b":3}');
    expect(jsonText(parseJson(text))).toBe('{"2":2,"b":3}');
  });

  it("refuses text that is not JSON instead of looping", () => {
    expect(() => [...reformatJsonPieces("[1, ?]")]).toThrow(/not JSON/);
    expect(() => [...reformatJsonPieces('["abc')]).toThrow(/not JSON/);
  });

  it("matches jsonTextPieces' default options", () => {
    const text = textOf({ a: [1, { b: "c" }], d: "x".repeat(100_000) }, 0);
    expect([...reformatJsonPieces(text)].join("")).toBe([...jsonTextPieces(parseJson(text))].join(""));
  });
});
