/**
 * The fast path of reading `zarr.json` (`plain-metadata.ts`) against @zarr/spec's full
 * parser: for every document it accepts it returns exactly what the full parser returns,
 * and it hands every other document (any invalid one included) to the full parser. Random
 * documents are mutations of valid ones; the zarr-python fixtures are real ones.
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonToBytes, MemoryStore, parseJsonBytes, parseNodeMetadata, readNodeMetadata, type JsonValue, ZarrError } from "../src/index.js";
import { parsePlainMetadata } from "../src/plain-metadata.js";
import { FIXTURES } from "./helpers.js";

/** What the full parser says: the metadata, or the error's code. */
function full(doc: JsonValue): unknown {
  try {
    return parseNodeMetadata(doc);
  } catch (error) {
    if (error instanceof ZarrError) return { error: error.code };
    throw error;
  }
}

const jsonValue = fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<JsonValue>;
const extension = fc.oneof(
  fc.constantFrom("bytes", "gzip", "", "regular", "default", "float32"),
  fc.record({ name: fc.constantFrom("bytes", "regular", "", 3), configuration: fc.oneof(fc.constant({}), fc.dictionary(fc.string(), jsonValue, { maxKeys: 2 }), jsonValue) }, { requiredKeys: ["name"] }),
  fc.record({ name: fc.constant("zstd"), configuration: fc.constant({}), must_understand: fc.boolean() }),
  fc.record({ name: fc.constant("int8"), fallback: fc.constant("int16") }),
  jsonValue,
);
const shape = fc.oneof(fc.array(fc.nat(10), { maxLength: 3 }), fc.array(fc.oneof(fc.integer({ min: -2, max: 5 }), fc.double(), fc.constant(2 ** 60)), { maxLength: 3 }), jsonValue);
const arrayFields = {
  zarr_format: fc.oneof(fc.constant(3), jsonValue),
  node_type: fc.oneof(fc.constant("array"), fc.constant("group"), jsonValue),
  shape,
  data_type: extension,
  chunk_grid: extension,
  chunk_key_encoding: extension,
  fill_value: jsonValue,
  codecs: fc.oneof(fc.array(extension, { maxLength: 3 }), jsonValue),
  attributes: fc.oneof(fc.dictionary(fc.string(), jsonValue, { maxKeys: 2 }), jsonValue),
  storage_transformers: fc.oneof(fc.constant([]), fc.array(extension, { maxLength: 1 }), jsonValue),
  dimension_names: fc.oneof(fc.constant(null), fc.array(fc.oneof(fc.string(), fc.constant(null), fc.nat()), { maxLength: 3 }), jsonValue),
  consolidated_metadata: fc.oneof(fc.constant(null), jsonValue),
  novel: fc.oneof(fc.constant({ must_understand: false }), jsonValue),
};
/** Documents near valid ones: each field present or not, valid or not. */
const documents = fc.record(arrayFields, {
  requiredKeys: [],
}) as fc.Arbitrary<JsonValue>;
/** Valid plain arrays: the form the fast path must take. */
const plainArrays = fc
  .tuple(fc.array(fc.nat(8), { maxLength: 3 }), fc.constantFrom("int8", "float32", "uint64"), fc.boolean(), fc.jsonValue({ maxDepth: 1 }), fc.boolean())
  .map(([dims, dataType, named, fill, object]) => {
    const doc: Record<string, JsonValue> = {
      zarr_format: 3,
      node_type: "array",
      shape: dims,
      data_type: object ? { name: dataType, configuration: {} } : dataType,
      chunk_grid: { name: "regular", configuration: { chunk_shape: dims.map((n) => Math.max(1, n)) } },
      chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
      fill_value: fill as JsonValue,
      codecs: [{ name: "bytes", configuration: { endian: "little" } }, "gzip"],
      attributes: { units: "K" },
    };
    if (named) doc.dimension_names = dims.map((_, i) => (i === 0 ? null : `d${i}`));
    return doc as JsonValue;
  });

/** Valid plain arrays with one field replaced by a random value of its kind, or removed. */
const nearPlain = fc.oneof(
  ...Object.entries(arrayFields).map(([field, value]) =>
    fc.tuple(plainArrays, value as fc.Arbitrary<JsonValue>, fc.boolean()).map(([doc, v, remove]) => {
      const out = { ...(doc as Record<string, JsonValue>) };
      if (remove) delete out[field];
      else out[field] = v;
      return out as JsonValue;
    }),
  ),
);

describe("the plain-metadata fast path", () => {
  it("accepts only what the full parser accepts, and returns exactly its result", () => {
    let accepted = 0;
    fc.assert(
      fc.property(fc.oneof(documents, plainArrays, nearPlain, nearPlain), (doc) => {
        const plain = parsePlainMetadata(doc);
        if (plain === undefined) return;
        accepted++;
        expect(plain).toEqual(full(doc));
      }),
      { numRuns: 3000 },
    );
    expect(accepted).toBeGreaterThan(100);
  });

  it("takes valid plain arrays and groups", () => {
    fc.assert(
      fc.property(plainArrays, (doc) => {
        expect(parsePlainMetadata(doc)).toBeDefined();
      }),
    );
    expect(parsePlainMetadata({ zarr_format: 3, node_type: "group" })).toEqual({ zarr_format: 3, node_type: "group", attributes: {} });
  });

  it("leaves consolidated metadata, unknown fields, must_understand, storage transformers and every invalid value to the full parser", () => {
    const base = { zarr_format: 3, node_type: "array", shape: [2], data_type: "int8", chunk_grid: { name: "regular", configuration: { chunk_shape: [2] } }, chunk_key_encoding: { name: "default" }, fill_value: 0, codecs: ["bytes"] };
    expect(parsePlainMetadata(base as JsonValue)).toBeDefined();
    const other: Record<string, unknown>[] = [
      { zarr_format: 2 },
      { node_type: "table" },
      { shape: [2 ** 53] },
      { shape: [-1] },
      { shape: [2 ** 30, 2 ** 30] },
      { data_type: "" },
      { data_type: { name: "int8", fallback: "int16" } },
      { codecs: [] },
      { codecs: [{ name: "zstd", must_understand: false }] },
      { chunk_grid: { name: "regular", configuration: [] } },
      { storage_transformers: [{ name: "t" }] },
      { dimension_names: ["x", "y"] },
      { dimension_names: [3] },
      { attributes: [] },
      { novel: { must_understand: false } },
    ];
    for (const change of other) expect(parsePlainMetadata({ ...base, ...change } as JsonValue), JSON.stringify(change)).toBeUndefined();
    const { fill_value: _, ...noFill } = base;
    expect(parsePlainMetadata(noFill as JsonValue)).toBeUndefined();
    expect(parsePlainMetadata({ zarr_format: 3, node_type: "group", consolidated_metadata: null })).toBeUndefined();
  });

  it("gives the full parser's result for every zarr.json of the zarr-python fixtures", () => {
    const docs: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (name === "zarr.json") docs.push(path);
      }
    };
    walk(FIXTURES);
    expect(docs.length).toBeGreaterThan(10);
    let plain = 0;
    for (const path of docs) {
      const doc = parseJsonBytes(new Uint8Array(readFileSync(path)), path);
      const fast = parsePlainMetadata(doc);
      if (fast !== undefined) plain++;
      expect(fast ?? parseNodeMetadata(doc)).toEqual(parseNodeMetadata(doc));
    }
    expect(plain).toBeGreaterThan(docs.length / 2);
  });

  it("readNodeMetadata gives the full parser's errors for documents off the fast path", async () => {
    const store = new MemoryStore();
    await store.set("a/zarr.json", jsonToBytes({ zarr_format: 3, node_type: "array", shape: [2], data_type: "int8" } as JsonValue));
    await expect(readNodeMetadata(store, "a")).rejects.toThrow('Invalid metadata in "a/zarr.json" at $.chunk_grid: required field "chunk_grid" is missing');
    await store.set("g/zarr.json", jsonToBytes({ zarr_format: 3, node_type: "group", consolidated_metadata: null } as JsonValue));
    expect(await readNodeMetadata(store, "g")).toEqual({ zarr_format: 3, node_type: "group", attributes: {}, consolidated_metadata: null });
  });
});
