/**
 * Big documents keep their attributes unparsed (the threshold is lowered here so that
 * the documents can be small): `info` prints them from their text exactly as it prints
 * parsed attributes, and `info`, `tree` and `get` never parse them.
 */
import fs from "node:fs";
import path from "node:path";
import { unparsedAttributesThreshold } from "@zarr/spec";
import fc from "fast-check";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { removeTempDirs, runInProcess, tempDir } from "./helpers.js";

afterAll(removeTempDirs);

// An int32 array of 4 elements in chunks of 2, gzip-compressed: info resolves its chain
// without the trailing compressor first (describe.ts), from a view of the metadata.
const ARRAY = { zarr_format: 3, node_type: "array", shape: [4], data_type: "int32", fill_value: 0 } as Record<string, unknown>;
ARRAY.chunk_grid = { name: "regular", configuration: { chunk_shape: [2] } };
ARRAY.chunk_key_encoding = { name: "default", configuration: { separator: "/" } };
ARRAY.codecs = [{ name: "bytes", configuration: { endian: "little" } }, { name: "gzip", configuration: { level: 1 } }];

/** A store with a group and its array `a`, both with `attributes` (JSON text) spliced into their zarr.json. */
function storeWith(attributes: string): string {
  const dir = tempDir("zarr-unparsed-");
  const write = (file: string, doc: object) => fs.writeFileSync(file, `${JSON.stringify(doc).slice(0, -1)},"attributes":${attributes}}`);
  write(path.join(dir, "zarr.json"), { zarr_format: 3, node_type: "group" });
  fs.mkdirSync(path.join(dir, "a"));
  write(path.join(dir, "a", "zarr.json"), ARRAY);
  return dir;
}

/** Runs `zarr argv` in this process with the threshold at `bytes`; its output. */
async function runWith(bytes: number, ...argv: string[]): Promise<string> {
  const saved = unparsedAttributesThreshold.bytes;
  unparsedAttributesThreshold.bytes = bytes;
  try {
    const { code, out, err } = await runInProcess(...argv);
    expect(err).toBe("");
    expect(code).toBe(0);
    return out;
  } finally {
    unparsedAttributesThreshold.bytes = saved;
  }
}

/** What `info` prints for each node and form, with the attributes kept unparsed and parsed. */
async function infoBothWays(dir: string): Promise<{ kept: string[]; parsed: string[] }> {
  const commands = [["info", dir], ["info", dir, "--json"], ["info", dir, "a"], ["info", dir, "a", "--json"]];
  const kept: string[] = [];
  const parsed: string[] = [];
  for (const argv of commands) {
    kept.push(await runWith(0, ...argv));
    parsed.push(await runWith(Number.POSITIVE_INFINITY, ...argv));
  }
  return { kept, parsed };
}

/** Numbers as their text: -0, integers beyond 2^53 (exact as bigints), exponents, trailing zeros. */
const NUMBER_TEXT = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
  fc.constantFrom("-0", "-0.0", "0", "1.0", "1e21", "2.50E-3", "18446744073709551615", "-9223372036854775808", "9007199254740993"),
);
const MARK = "\u0000num:";

/** Attribute objects as JSON text, their numbers in every spelling JSON allows. */
const attributesText = fc
  .dictionary(
    fc.string(),
    fc.letrec<{ v: unknown }>((tie) => ({
      v: fc.oneof(
        { depthSize: "small" },
        fc.constantFrom(null, true, false, "", "é😀", "tab\there", "\u009b", "a\\b\"c", "\u2028"),
        fc.string({ unit: "binary" }),
        NUMBER_TEXT.map((n) => MARK + n),
        fc.array(tie("v"), { maxLength: 4 }),
        fc.dictionary(fc.string(), tie("v"), { maxKeys: 4 }),
      ),
    })).v,
    { maxKeys: 6 },
  )
  // Numbers went in as marked strings, spelled out here.
  .map((attrs) => JSON.stringify(attrs).replace(/"\\u0000num:([^"]*)"/g, "$1"));

describe("attributes kept unparsed", () => {
  afterEach(() => vi.restoreAllMocks());

  it("info prints what it prints for parsed attributes (text and --json)", { timeout: 300_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(attributesText, async (text) => {
        const { kept, parsed } = await infoBothWays(storeWith(text));
        expect(kept).toEqual(parsed);
      }),
      { numRuns: 60 },
    );
  });

  it.each([
    ["escapes spelled in every way", '{"a\\/b": "\\u00e9\\t\\"\\\\\\u0000\\ud83d\\ude00\\ud800", "\\u0041": ["\\b\\f\\n\\r"]}'],
    ["numbers", '{"z": -0, "zz": [-0.0, 0.0], "big": 18446744073709551615, "neg": -9223372036854775808, "e": 1E+2, "f": 0.10}'],
    ["empty containers", '{"o": {}, "a": [], "n": [{}, [], { }, [ ]], "e": {"": {}}}'],
    ["deep nesting beyond indentDepth", `{"deep": ${"[".repeat(100)}{"x": 1}${"]".repeat(100)}, "after": 1}`],
    ["spaced out", '{\n  "a" :\t[ 1 ,\r\n 2 ] ,"b":{ "c" : null } }'],
    ["no attributes at all", "{}"],
  ])("info prints %s as it prints them parsed", async (_name, text) => {
    const { kept, parsed } = await infoBothWays(storeWith(text));
    expect(kept).toEqual(parsed);
  });

  it("info, tree and get never parse them", async () => {
    const dir = storeWith('{"never_parsed_marker": [1, 2, {"x": "y"}], "n": 18446744073709551615}');
    const parse = vi.spyOn(JSON, "parse");
    const parsedMarker = () => parse.mock.calls.some(([text]) => typeof text === "string" && text.includes("never_parsed_marker"));
    for (const argv of [["info", dir], ["info", dir, "a"], ["info", dir, "a", "--json"], ["tree", dir], ["tree", dir, "--json"], ["get", dir, "a"]]) {
      parse.mockClear();
      const out = await runWith(0, ...argv);
      expect(out.length).toBeGreaterThan(0);
      expect(parsedMarker()).toBe(false);
    }
    // The same commands with the threshold out of reach do parse them: the spy sees it.
    await runWith(Number.POSITIVE_INFINITY, "tree", dir);
    expect(parsedMarker()).toBe(true);
  });
});
