import { describe, expect, it } from "vitest";
import { MetadataError, nodeMetadataToJson, parseArrayMetadata, parseExtension, parseGroupMetadata, parseNodeMetadata, validateKey, ZarrError } from "../src/index.js";

const array = {
  zarr_format: 3,
  node_type: "array",
  shape: [2],
  data_type: "int8",
  chunk_grid: { name: "regular", configuration: { chunk_shape: [2] } },
  chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
  fill_value: 0,
  codecs: ["bytes"],
};

describe("metadata parsing", () => {
  it("normalises short-hand extensions and writes the object form", () => {
    const m = parseArrayMetadata(array);
    expect(m.codecs).toEqual([{ name: "bytes", configuration: {} }]);
    expect(nodeMetadataToJson(m).codecs).toEqual([{ name: "bytes", configuration: {} }]);
    expect(nodeMetadataToJson(m).data_type).toBe("int8");
  });
  it("names the path of nested problems in consolidated metadata", () => {
    const doc = {
      zarr_format: 3,
      node_type: "group",
      consolidated_metadata: { kind: "inline", must_understand: false, metadata: { "a/b": { ...array, shape: [-1] } } },
    };
    try {
      parseGroupMetadata(doc, { key: "zarr.json" });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(MetadataError);
      expect((e as MetadataError).message).toBe(
        'Invalid metadata in "zarr.json" at $.consolidated_metadata.metadata["a/b"].shape[0]: expected a non-negative integer below 2^53, got the number -1',
      );
    }
  });
  it("refuses must_understand false where the spec forbids it", () => {
    expect(() => parseArrayMetadata({ ...array, data_type: { name: "int8", must_understand: false } })).toThrow(/not allowed/);
    expect(parseExtension({ name: "crc32c", must_understand: false }, [])).toEqual({ name: "crc32c", configuration: {}, must_understand: false });
  });
  it("dispatches on node_type and rejects non-objects", () => {
    expect(parseNodeMetadata({ zarr_format: 3, node_type: "group" }).node_type).toBe("group");
    expect(() => parseNodeMetadata([])).toThrow(/expected a JSON object/);
    expect(() => parseNodeMetadata({ zarr_format: 3, node_type: "group", extra: 1 })).toThrow(/unknown field "extra"/);
  });
});

describe("validateKey", () => {
  it("refuses escaping keys", () => {
    for (const bad of ["", "/abs", "a/../b", "..", "./a", "a//b", "a\\b", "a\0b", "C:/x", "a/"]) {
      expect(() => validateKey(bad), bad).toThrow(ZarrError);
    }
    for (const good of ["zarr.json", "a b/c", "ü/ñ", "c/0/1", ".zattrs", "a/.zarray"]) expect(() => validateKey(good)).not.toThrow();
  });
});
