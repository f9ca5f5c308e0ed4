import { describe, expect, it } from "vitest";
import { keepAttributesUnparsed, parseGroupMetadata, unparsedAttributes } from "../src/index.js";

describe("keepAttributesUnparsed", () => {
  it("keeps the text until attributes are read, then parses it once (exact 64-bit integers) into a plain property", () => {
    const meta = parseGroupMetadata({ zarr_format: 3, node_type: "group", attributes: {} });
    keepAttributesUnparsed(meta, '{"big": 18446744073709551615, "b": [1]}');
    expect(unparsedAttributes(meta)).toBe('{"big": 18446744073709551615, "b": [1]}');
    expect(Object.keys(meta)).toEqual(["zarr_format", "node_type", "attributes"]);
    const attributes = meta.attributes;
    expect(attributes).toEqual({ big: 18446744073709551615n, b: [1] });
    expect(meta.attributes).toBe(attributes);
    expect(unparsedAttributes(meta)).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(meta, "attributes")).toEqual({ value: attributes, writable: true, enumerable: true, configurable: true });
  });

  it("replaces the text unparsed when attributes are assigned", () => {
    const meta = parseGroupMetadata({ zarr_format: 3, node_type: "group" });
    keepAttributesUnparsed(meta, '{"a": 1');
    meta.attributes = { b: 2 };
    expect(unparsedAttributes(meta)).toBeUndefined();
    expect(meta.attributes).toEqual({ b: 2 });
  });

  it("parses through a copy (spreading reads the property)", () => {
    const meta = parseGroupMetadata({ zarr_format: 3, node_type: "group" });
    keepAttributesUnparsed(meta, '{"a": 1}');
    expect({ ...meta }.attributes).toEqual({ a: 1 });
    expect(unparsedAttributes(meta)).toBeUndefined();
  });

  it("names the document when the kept text fails to parse after all", () => {
    const meta = parseGroupMetadata({ zarr_format: 3, node_type: "group" });
    keepAttributesUnparsed(meta, "{", "g/zarr.json");
    expect(() => meta.attributes).toThrow(/Invalid metadata in "g\/zarr.json"/);
  });
});
