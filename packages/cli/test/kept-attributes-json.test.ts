import { jsonText, keepAttributesUnparsed, unparsedAttributes } from "@zarr/spec";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cliNumberText } from "../src/json-text.js";
import { keptAttributesJsonPieces } from "../src/kept-attributes-json.js";

describe("keptAttributesJsonPieces", () => {
  it("writes an object with kept attributes as jsonTextPieces writes it with them parsed", () => {
    const member = fc.jsonValue({ maxDepth: 3 });
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), member, { maxKeys: 4 }),
        fc.dictionary(fc.string(), member, { maxKeys: 4 }),
        fc.constantFrom(0, 2, 4),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 1, max: 50 }),
        (before, attributes, indent, indentDepth, pieceChars) => {
          const text = JSON.stringify(attributes);
          const kept = { ...before, attributes: {} };
          keepAttributesUnparsed(kept, text);
          const parsed = { ...before, attributes: JSON.parse(text) };
          const options = { indent, indentDepth, numberText: cliNumberText, pieceChars };
          expect([...keptAttributesJsonPieces(kept, options)].join("")).toBe(jsonText(parsed, options));
          expect(unparsedAttributes(kept)).toBe(text);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it("writes an object without kept attributes as jsonTextPieces does", () => {
    expect([...keptAttributesJsonPieces({ a: [1, -0], b: {} }, { indent: 2, numberText: cliNumberText })].join("")).toBe(
      '{\n  "a": [\n    1,\n    -0.0\n  ],\n  "b": {}\n}',
    );
  });
});
