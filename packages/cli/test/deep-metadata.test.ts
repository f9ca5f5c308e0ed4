/**
 * Metadata nested hundreds of thousands of levels deep: every command prints deep
 * attributes (the writers use no recursion), and refuses a struct data type nested deeper
 * than its documented limit with METADATA_INVALID naming the limit. Never an internal error.
 */
import fs from "node:fs";
import path from "node:path";
import { type JsonValue, jsonText } from "@zarr/spec";
import { describe, expect, it } from "vitest";
import { type RunResult, tempDir, zarr } from "./helpers.js";

const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
const deepArray = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

const v3Array = (attributes: string, dataType = '"int32"') =>
  `{"zarr_format":3,"node_type":"array","shape":[4],"data_type":${dataType},"chunk_grid":{"name":"regular","configuration":{"chunk_shape":[4]}},"chunk_key_encoding":{"name":"default","configuration":{"separator":"/"}},"fill_value":0,"codecs":[{"name":"bytes","configuration":{"endian":"little"}}],"attributes":${attributes}}`;
const v2Array = (dtype = '"<i4"') =>
  `{"zarr_format":2,"shape":[4],"chunks":[4],"dtype":${dtype},"compressor":null,"filters":null,"fill_value":0,"order":"C"}`;

/** Writes `files` (store key → text) into a new store directory. */
function store(files: Record<string, string>): string {
  const dir = tempDir("zarr-deep-");
  for (const [key, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, key)), { recursive: true });
    fs.writeFileSync(path.join(dir, key), text);
  }
  return dir;
}

function expectNoInternalError(r: RunResult): void {
  expect(r.stderr, r.command).not.toMatch(/internal error|call stack/i);
}

async function ok(args: string[]): Promise<string> {
  const r = await zarr(args);
  expectNoInternalError(r);
  expect(r.code, `${r.command}: ${r.stderr}`).toBe(0);
  return r.stdout.toString("utf8");
}

/** The text after `label:` on its line of `zarr info`'s output. */
function field(out: string, label: string): string {
  const line = out.split("\n").find((l) => l.startsWith(`${label}:`));
  return (line ?? "").slice(20);
}

// Each case starts a dozen processes that parse and print megabytes of JSON.
const TIMEOUT = 600_000;

describe.each([5_000, 200_000])("metadata nested %i levels deep", (depth) => {
  it("attributes: info, info --json, tree, tree --json and get print them (Zarr v3 and v2)", async () => {
    const attributes = `{"o":${deepObject(depth)},"l":${deepArray(depth)}}`;
    const v3 = store({ "zarr.json": `{"zarr_format":3,"node_type":"group","attributes":${attributes}}`, "a/zarr.json": v3Array(attributes) });
    const v2 = store({ ".zgroup": '{"zarr_format":2}', ".zattrs": attributes, "a/.zarray": v2Array(), "a/.zattrs": attributes });
    for (const dir of [v3, v2]) {
      for (const node of [[], ["a"]]) {
        expect(field(await ok(["info", dir, ...node]), "attributes")).toBe(attributes);
        const json = JSON.parse(await ok(["info", dir, ...node, "--json"])) as { attributes: JsonValue };
        expect(jsonText(json.attributes)).toBe(attributes);
      }
      expect(await ok(["tree", dir])).toContain("a [4] int32");
      expect(JSON.parse(await ok(["tree", dir, "--json"])).children[0].name).toBe("a");
      expect(JSON.parse(await ok(["get", dir, "a"])).values).toEqual(["0", "0", "0", "0"]);
    }
  }, TIMEOUT);

  it("a struct data type: info and get refuse it naming the limit, tree prints it", async () => {
    const field0 = '{"name":"struct","configuration":{"fields":[{"name":"f","data_type":';
    const dataType = field0.repeat(depth) + '"int8"' + "}]}}".repeat(depth);
    const dir = store({ "zarr.json": '{"zarr_format":3,"node_type":"group"}', "s/zarr.json": v3Array("{}", dataType) });
    for (const args of [["info", dir, "s"], ["info", dir, "s", "--json"], ["get", dir, "s"]]) {
      const r = await zarr(args);
      expectNoInternalError(r);
      expect(r.code, r.command).toBe(1);
      expect(r.stderr).toContain("[METADATA_INVALID]");
      expect(r.stderr).toContain("structs nested deeper than 32 levels");
    }
    // tree resolves no data type: it shows the definition as stored.
    const tree = await ok(["tree", dir]);
    expect(tree).toContain(`s [4] struct ${dataType.slice('{"name":"struct","configuration":'.length, -1)}`);
    const json = JSON.parse(await ok(["tree", dir, "--json"])) as { children: { data_type: JsonValue }[] };
    expect(jsonText(json.children[0].data_type)).toBe(dataType);
  }, TIMEOUT);

  it("a Zarr v2 structured dtype: every command refuses it naming the limit", async () => {
    const dtype = '[["f",'.repeat(depth) + '"<i1"' + "]]".repeat(depth);
    const dir = store({ ".zarray": v2Array(dtype) });
    for (const args of [["info", dir], ["info", dir, "--json"], ["tree", dir], ["tree", dir, "--json"], ["get", dir]]) {
      const r = await zarr(args);
      expectNoInternalError(r);
      expect(r.code, r.command).toBe(1);
      expect(r.stderr).toContain("[METADATA_INVALID]");
      expect(r.stderr).toContain("structured types nested deeper than 32 levels");
    }
  }, TIMEOUT);
});
