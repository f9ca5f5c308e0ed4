/**
 * Huge metadata documents: `zarr info` (text and --json) and `zarr tree --json` print a
 * document of many attribute keys, or one long string attribute, in pieces of bounded
 * size instead of building the whole text (and its escaped, joined and encoded copies) as
 * one string; the text is the same as before.
 */
import fs from "node:fs";
import path from "node:path";
import { unparsedAttributesThreshold } from "@zarr/spec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CliIO } from "../src/cli-io.js";
import { JSON_PIECE_CHARS } from "../src/json-stream.js";
import { main } from "../src/main.js";
import { tempDir } from "./helpers.js";

const KEYS = 200_000;
const LONG = 3 * JSON_PIECE_CHARS;

/** A store whose array `a` has KEYS attributes and one LONG-character string attribute (with characters to escape in it). */
function hugeStore(): { dir: string; attributes: Record<string, unknown> } {
  const attributes: Record<string, unknown> = { long: `"\u009b${"x".repeat(LONG)}\n` };
  for (let i = 0; i < KEYS; i++) attributes[`k${i}`] = i;
  const dir = tempDir("zarr-huge-");
  fs.writeFileSync(path.join(dir, "zarr.json"), JSON.stringify({ zarr_format: 3, node_type: "group", attributes }));
  fs.mkdirSync(path.join(dir, "a"));
  fs.writeFileSync(
    path.join(dir, "a", "zarr.json"),
    JSON.stringify({
      zarr_format: 3,
      node_type: "array",
      shape: [4],
      data_type: "int32",
      chunk_grid: { name: "regular", configuration: { chunk_shape: [4] } },
      chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
      fill_value: 0,
      codecs: [{ name: "bytes", configuration: { endian: "little" } }],
      attributes,
    }),
  );
  return { dir, attributes };
}

/** Runs `zarr argv` in this process, recording the length of each write. */
async function run(...argv: string[]): Promise<{ out: string; writes: number[] }> {
  const parts: string[] = [];
  const writes: number[] = [];
  const io: CliIO = {
    write: async (chunk) => {
      const text = typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
      writes.push(text.length);
      parts.push(text);
    },
    error: (line) => {
      throw new Error(line);
    },
  };
  expect(await main(argv, io)).toBe(0);
  return { out: parts.join(""), writes };
}

/** Every write holds at most a piece and what the last step added to it (one escaped line part). */
function expectBoundedWrites(writes: number[], total: number): void {
  expect(writes.length).toBeGreaterThan(total / (2 * JSON_PIECE_CHARS));
  for (const n of writes) expect(n).toBeLessThanOrEqual(2 * JSON_PIECE_CHARS);
}

// With the attributes parsed, and kept unparsed as documents of 8 MiB and more keep them
// (the threshold lowered: these documents are smaller), which info prints from their text.
describe.each([
  ["parsed", Number.POSITIVE_INFINITY],
  ["kept unparsed", 0],
])("huge metadata documents, attributes %s", (_how, threshold) => {
  const { dir, attributes } = hugeStore();
  const saved = unparsedAttributesThreshold.bytes;
  beforeAll(() => void (unparsedAttributesThreshold.bytes = threshold));
  afterAll(() => void (unparsedAttributesThreshold.bytes = saved));

  it("info writes the attributes line in bounded pieces", { timeout: 120_000 }, async () => {
    for (const node of [[], ["a"]]) {
      const { out, writes } = await run("info", dir, ...node);
      const line = out.split("\n").find((l) => l.startsWith("attributes:")) ?? "";
      // printable escapes the C1 control JSON leaves raw, as it did before.
      expect(line.slice(20)).toBe(JSON.stringify(attributes).replace("\u009b", "\\x9b"));
      expectBoundedWrites(writes, out.length);
    }
  });

  it("info --json writes the document in bounded pieces", { timeout: 120_000 }, async () => {
    const { out, writes } = await run("info", dir, "a", "--json");
    // printableJson escapes the C1 control JSON leaves raw, as it did before.
    expect(out).toContain('"long": "\\"\\u009bxxx');
    expect(out).not.toContain("\u009b");
    expect(JSON.parse(out).attributes).toEqual(attributes);
    expectBoundedWrites(writes, out.length);
  });

  it("tree --json writes in bounded pieces", { timeout: 120_000 }, async () => {
    const wide = tempDir("zarr-huge-tree-");
    fs.writeFileSync(path.join(wide, "zarr.json"), JSON.stringify({ zarr_format: 3, node_type: "group" }));
    const array = fs.readFileSync(path.join(dir, "a", "zarr.json"), "utf8");
    // A data type with a configuration as long as the attributes (tree prints data types, not attributes).
    const doc = JSON.parse(array);
    doc.data_type = { name: "int32", configuration: { note: "x".repeat(LONG) } };
    doc.attributes = {};
    fs.mkdirSync(path.join(wide, "a"));
    fs.writeFileSync(path.join(wide, "a", "zarr.json"), JSON.stringify(doc));
    const { out, writes } = await run("tree", wide, "--json");
    expect(JSON.parse(out).children[0].data_type.configuration.note).toHaveLength(LONG);
    expectBoundedWrites(writes, out.length);
  });
});
