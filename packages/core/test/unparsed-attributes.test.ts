/**
 * Big `zarr.json` documents keep their attributes as text until they are read: the
 * metadata is what parsing the whole document gives, opening, listing and reading the
 * array leave the text unparsed, and the threshold (lowered here, so the documents can be
 * small) applies from its byte count on.
 */
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  get,
  listChildren,
  MemoryStore,
  MetadataError,
  open,
  openArray,
  openGroup,
  readNodeMetadata,
  resize,
  set,
  unparsedAttributes,
  unparsedAttributesThreshold,
  updateAttributes,
  walk,
  ZarrError,
} from "../src/index.js";

// An int32 array of 4 elements in chunks of 2.
const ARRAY = JSON.parse('{"zarr_format":3,"node_type":"array","shape":[4],"data_type":"int32","chunk_grid":{"name":"regular","configuration":{"chunk_shape":[2]}},"chunk_key_encoding":{"name":"default"},"fill_value":0,"codecs":[{"name":"bytes","configuration":{"endian":"little"}}]}');

const ATTRIBUTES_TEXT = '{"title": "big", "n": 18446744073709551615, "nested": {"a": [1, -0.5, null, true]}, "é😀": "\\u00e9"}';

/** `doc` as the text of a zarr.json, with `attributes` spliced in as text when given. */
function documentText(doc: Record<string, unknown>, attributes?: string): string {
  const text = JSON.stringify(doc);
  return attributes === undefined ? text : `${text.slice(0, -1)},"attributes":${attributes}}`;
}

async function put(store: MemoryStore, key: string, text: string): Promise<void> {
  await store.set(key, new TextEncoder().encode(text));
}

/**
 * The metadata of `text` read with the threshold at `bytes` (copied, which parses kept
 * attributes), or the error's code and message; `kept` says whether attributes were kept.
 */
async function readWith(text: string, bytes: number): Promise<{ kept: boolean; result: unknown }> {
  const store = new MemoryStore();
  await put(store, "zarr.json", text);
  const saved = unparsedAttributesThreshold.bytes;
  unparsedAttributesThreshold.bytes = bytes;
  try {
    const meta = await readNodeMetadata(store, "");
    return { kept: meta !== undefined && unparsedAttributes(meta) !== undefined, result: meta && { ...meta } };
  } catch (error) {
    if (!(error instanceof ZarrError)) throw error;
    return { kept: false, result: { code: error.code, message: error.message } };
  } finally {
    unparsedAttributesThreshold.bytes = saved;
  }
}

describe("big documents keep their attributes unparsed", () => {
  const saved = unparsedAttributesThreshold.bytes;
  beforeEach(() => void (unparsedAttributesThreshold.bytes = 64));
  afterEach(() => void (unparsedAttributesThreshold.bytes = saved));

  it("open, listing, walking, get and set leave the text unparsed; reading attributes parses it exactly", async () => {
    const store = new MemoryStore();
    await put(store, "zarr.json", documentText({ zarr_format: 3, node_type: "group" }, ATTRIBUTES_TEXT));
    await put(store, "a/zarr.json", documentText(ARRAY, ATTRIBUTES_TEXT));
    const root = await openGroup(store);
    const array = await openArray(store, "a");
    expect(unparsedAttributes(root.metadata)).toBe(ATTRIBUTES_TEXT);
    expect(unparsedAttributes(array.metadata)).toBe(ATTRIBUTES_TEXT);
    const [entry] = await listChildren(root);
    expect(unparsedAttributes(entry.metadata)).toBe(ATTRIBUTES_TEXT);
    for await (const node of walk(root)) expect(unparsedAttributes(node.metadata)).toBe(ATTRIBUTES_TEXT);
    const opened = await open(root, "a");
    expect(unparsedAttributes(opened.metadata)).toBe(ATTRIBUTES_TEXT);
    await set(array, null, 7);
    expect(Array.from((await get(array)).data as Int32Array)).toEqual([7, 7, 7, 7]);
    expect(unparsedAttributes(array.metadata)).toBe(ATTRIBUTES_TEXT);
    expect(array.attributes).toEqual({ title: "big", n: 18446744073709551615n, nested: { a: [1, -0.5, null, true] }, "é😀": "é" });
    expect(unparsedAttributes(array.metadata)).toBeUndefined();
    expect(unparsedAttributes(root.metadata)).toBe(ATTRIBUTES_TEXT);
  });

  it("applies from the threshold's byte count on: one byte below it, documents are parsed whole", async () => {
    const text = documentText(ARRAY, '{"a": 1}');
    const bytes = new TextEncoder().encode(text).length;
    expect(await readWith(text, bytes)).toMatchObject({ kept: true });
    expect(await readWith(text, bytes + 1)).toMatchObject({ kept: false });
    // Counted in bytes, not characters.
    const accented = documentText(ARRAY, '{"é": 1}');
    expect(await readWith(accented, accented.length + 1)).toMatchObject({ kept: true });
  });

  it("gives the metadata (or the error) that parsing the whole document gives", async () => {
    let kept = 0;
    const attributes = fc.oneof(
      fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }),
      fc.jsonValue({ maxDepth: 1 }),
    );
    const field = fc.constantFrom("node_type", "shape", "codecs", "fill_value", "extra", "consolidated_metadata");
    const change = fc.oneof(fc.constant(undefined), fc.jsonValue({ maxDepth: 1 }), fc.constant({ must_understand: false }), fc.constant("group"));
    await fc.assert(
      fc.asyncProperty(attributes, fc.dictionary(field, change, { maxKeys: 2 }), fc.boolean(), fc.integer({ min: 1, max: 2 }), async (attrs, changes, spaced, copies) => {
        const doc: Record<string, unknown> = { ...ARRAY, ...changes };
        for (const k of Object.keys(changes)) if (changes[k as keyof typeof changes] === undefined) delete doc[k];
        // The attributes member once or twice (JSON.parse keeps the last), written spaced out or compact.
        const attributesText = JSON.stringify(attrs, null, spaced ? 1 : 0);
        const text = documentText(doc, copies === 2 ? `{"first": 1}, "attributes": ${attributesText}` : attributesText);
        const eager = await readWith(text, Number.POSITIVE_INFINITY);
        const lazy = await readWith(text, 0);
        expect(lazy.result).toEqual(eager.result);
        if (lazy.kept) kept++;
      }),
      { numRuns: 1_000 },
    );
    expect(kept).toBeGreaterThan(100);
  });

  it("refuses text that is not JSON, naming the document and the position", async () => {
    const text = `${documentText(ARRAY, '{"a": [1, 2,]}')}`;
    const error = await readWith(text, 0);
    expect(error.result).toMatchObject({ code: "METADATA_INVALID" });
    expect((error.result as { message: string }).message).toMatch(/^Invalid metadata in "zarr.json" at \$: not valid JSON \(unexpected "]" at position \d+/);
    expect((await readWith(text, Number.POSITIVE_INFINITY)).result).toMatchObject({ code: "METADATA_INVALID" });
  });

  it("refuses attributes that are not an object with the JSON path, as parsing whole does", async () => {
    const text = documentText(ARRAY, '["x"]');
    const lazy = await readWith(text, 0);
    expect(lazy).toEqual(await readWith(text, Number.POSITIVE_INFINITY));
    expect(lazy.result).toMatchObject({ message: expect.stringContaining("at $.attributes: expected an object") });
  });

  it("writes of the metadata (resize, updateAttributes) write the kept attributes, parsed", async () => {
    const store = new MemoryStore();
    await put(store, "a/zarr.json", documentText(ARRAY, ATTRIBUTES_TEXT));
    const expected = { title: "big", n: 18446744073709551615n, nested: { a: [1, -0.5, null, true] }, "é😀": "é" };
    await resize(await openArray(store, "a"), [6]);
    const resized = await openArray(store, "a");
    expect(resized.shape).toEqual([6]);
    expect(unparsedAttributes(resized.metadata)).toBeDefined();
    expect(resized.attributes).toEqual(expected);
    const updated = await updateAttributes(await openArray(store, "a"), { title: "bigger" });
    expect(updated.attributes).toEqual({ ...expected, title: "bigger" });
    expect((await openArray(store, "a")).attributes).toEqual({ ...expected, title: "bigger" });
  });

  it("an error thrown by a bad document is a MetadataError", async () => {
    const store = new MemoryStore();
    await put(store, "zarr.json", "{".repeat(100));
    await expect(readNodeMetadata(store, "")).rejects.toBeInstanceOf(MetadataError);
  });
});
