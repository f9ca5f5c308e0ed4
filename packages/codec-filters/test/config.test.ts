/** Configurations: validation with JSON paths, `id` keys, data type checks, and `toJSON`. */
import { type CodecEntry, type JsonObject, MetadataError } from "@zarr/spec";
import { describe, expect, it } from "vitest";
import {
  adler32Codec,
  asType,
  bitround,
  castValue,
  castValueDraft,
  categorize,
  crc32Codec,
  delta,
  filterCodecs,
  fixedScaleOffset,
  fletcher32Codec,
  jenkinsLookup3Codec,
  json2,
  msgpack2,
  numcodecsBitround,
  numcodecsPackBits,
  packBits,
  quantize,
  reshape,
  scaleOffset,
  shuffle,
} from "../src/index.js";
import { buildContext, dataType } from "./helpers.js";

async function build(entry: CodecEntry, config: JsonObject, type = "float64", shape = [10]) {
  return entry.fromConfig(config, buildContext(await dataType(type), shape));
}

async function rejects(entry: CodecEntry, config: JsonObject, type: string, path: string) {
  let error: unknown;
  try {
    await build(entry, config, type);
  } catch (e) {
    error = e;
  }
  expect(error, `${entry.name} ${JSON.stringify(config)}`).toBeInstanceOf(MetadataError);
  expect((error as MetadataError).jsonPath).toBe(path);
  return error as MetadataError;
}

const at = (key: string) => `$.codecs[0].configuration.${key}`;

describe("every codec", () => {
  const minimal: [CodecEntry, JsonObject, string][] = [
    [delta, { dtype: "<f8" }, "float64"],
    [fixedScaleOffset, { offset: 1, scale: 2, dtype: "<f8" }, "float64"],
    [quantize, { digits: 2, dtype: "<f8" }, "float64"],
    [numcodecsBitround, { keepbits: 3 }, "float64"],
    [bitround, { keepbits: 3 }, "float64"],
    [asType, { encode_dtype: "<f4", decode_dtype: "<f8" }, "float64"],
    [numcodecsPackBits, {}, "bool"],
    [packBits, {}, "bool"],
    [categorize, { labels: ["a"], dtype: "|O" }, "string"],
    [shuffle, { elementsize: 8 }, "float64"],
    [scaleOffset, { offset: 1, scale: 2 }, "float64"],
    [castValue, { data_type: "float32" }, "float64"],
    [castValueDraft, { data_type: "float32" }, "float64"],
    [reshape, { shape: [-1] }, "float64"],
    [adler32Codec, {}, "float64"],
    [crc32Codec, {}, "float64"],
    [fletcher32Codec, {}, "float64"],
    [jenkinsLookup3Codec, {}, "float64"],
    [json2, {}, "string"],
    [msgpack2, {}, "string"],
  ];

  it("is in filterCodecs under its name, with its kind and package", async () => {
    expect(filterCodecs.map((e) => e.name).sort()).toEqual(minimal.map(([e]) => e.name).sort());
    for (const [entry, config, type] of minimal) {
      const codec = await build(entry, config, type);
      expect(codec.kind).toBe(entry.codecKind);
      expect(codec.name).toBe(entry.name);
      expect(entry.package).toBe("@zarr/codec-filters");
    }
  });

  it("rejects unknown keys at their path and ignores numcodecs' id", async () => {
    for (const [entry, config, type] of minimal) {
      await rejects(entry, { ...config, bogus: 1 }, type, at("bogus"));
      const withId = await build(entry, { ...config, id: entry.name.replace("numcodecs.", "") }, type);
      expect(withId.toJSON().configuration).not.toHaveProperty("id");
    }
  });

  it("writes configurations that build the same codec again", async () => {
    for (const [entry, config, type] of minimal) {
      const first = (await build(entry, config, type)).toJSON();
      expect(first.name).toBe(entry.name);
      const again = (await build(entry, first.configuration, type)).toJSON();
      expect(again).toEqual(first);
    }
  });
});

describe("configuration errors name the JSON path", () => {
  it("numeric filters check their dtype fields against the array", async () => {
    await rejects(delta, { dtype: "<i2" }, "int32", at("dtype"));
    await rejects(delta, { dtype: "<i4", astype: "hello" }, "int32", at("astype"));
    await rejects(delta, { dtype: "|b1" }, "bool", at("dtype"));
    await rejects(delta, {}, "int32", at("dtype"));
    await rejects(delta, { dtype: 4 }, "int32", at("dtype"));
    await rejects(delta, { dtype: "<c8", astype: "<f4" }, "complex64", at("astype"));
    await rejects(fixedScaleOffset, { offset: "1", scale: 2, dtype: "<f8" }, "float64", at("offset"));
    await rejects(fixedScaleOffset, { offset: 1, dtype: "<f8" }, "float64", at("scale"));
    await rejects(fixedScaleOffset, { offset: 1, scale: 2, dtype: "<f4" }, "float64", at("dtype"));
    await rejects(fixedScaleOffset, { offset: 1, scale: 2 }, "string", at("dtype"));
    await rejects(quantize, { digits: 1.5, dtype: "<f8" }, "float64", at("digits"));
    await rejects(quantize, { digits: 1, dtype: "<i4" }, "int32", at("dtype"));
    await rejects(quantize, { digits: 1, dtype: "<f8", astype: "<i2" }, "float64", at("astype"));
    await rejects(asType, { decode_dtype: "<f8" }, "float64", at("encode_dtype"));
    await rejects(asType, { encode_dtype: "|O", decode_dtype: "<f8" }, "float64", at("encode_dtype"));
    await rejects(numcodecsBitround, { keepbits: 24 }, "float32", at("keepbits"));
    await rejects(numcodecsBitround, { keepbits: -1 }, "float32", at("keepbits"));
    await rejects(numcodecsBitround, { keepbits: 3 }, "bool", "$.codecs[0]");
    await rejects(numcodecsPackBits, {}, "uint8", "$.codecs[0]");
    await rejects(categorize, { labels: "a", dtype: "|O" }, "string", at("labels"));
    await rejects(categorize, { labels: ["a", 3], dtype: "|O" }, "string", at("labels"));
    await rejects(categorize, { labels: ["a"], dtype: "<i4" }, "string", at("dtype"));
    await rejects(categorize, { labels: ["a"], dtype: "|O", astype: "<f4" }, "string", at("astype"));
    await rejects(categorize, { labels: Array.from({ length: 300 }, (_, i) => String(i)), dtype: "|O" }, "string", at("astype"));
    await rejects(categorize, { labels: ["a"] }, "int32", "$.codecs[0]");
    await rejects(shuffle, { elementsize: -1 }, "float64", at("elementsize"));
    await rejects(crc32Codec, { location: "middle" }, "float64", at("location"));
    await rejects(jenkinsLookup3Codec, { initval: -1 }, "float64", at("initval"));
    await rejects(jenkinsLookup3Codec, { prefix: [1, 256] }, "float64", at("prefix"));
    await rejects(json2, { encoding: "latin-1" }, "string", at("encoding"));
    await rejects(json2, { separators: [","] }, "string", at("separators"));
    await rejects(json2, { indent: true }, "string", at("indent"));
    await rejects(json2, {}, "float64", "$.codecs[0]");
    await rejects(msgpack2, { raw: "no" }, "string", at("raw"));
    await rejects(reshape, { shape: [3] }, "float64", at("shape"));
    await rejects(castValue, { data_type: 5 }, "float64", at("data_type"));
    await rejects(castValue, { data_type: "int8", scalar_map: { encode: [["NaN"]] } }, "float64", `${at("scalar_map")}.encode[0]`);
    await rejects(castValue, { data_type: "int8", scalar_map: { encode: [[1.5, 300]] } }, "float64", `${at("scalar_map")}.encode[0][1]`);
    await rejects(castValue, { data_type: "int8", scalar_map: { both: [] } }, "float64", at("scalar_map"));
    await rejects(scaleOffset, { offset: "x", scale: 1 }, "float64", at("offset"));
  });
});

describe("toJSON records every parameter", () => {
  it("fills in numcodecs' defaults and keeps dtype spellings as written", async () => {
    expect((await build(delta, { dtype: "int32" }, "int32")).toJSON()).toEqual({
      name: "numcodecs.delta",
      configuration: { dtype: "int32", astype: "int32" },
    });
    expect((await build(fixedScaleOffset, { offset: 1, scale: 2 }, "float32")).toJSON()).toEqual({
      name: "numcodecs.fixedscaleoffset",
      configuration: { offset: 1, scale: 2, dtype: "float32", astype: "float32" },
    });
    expect((await build(quantize, { digits: 3 }, "float32")).toJSON()).toEqual({
      name: "numcodecs.quantize",
      configuration: { digits: 3, dtype: "float32", astype: "float32" },
    });
    expect((await build(asType, { encode_dtype: "<f2" }, "float32")).toJSON()).toEqual({
      name: "numcodecs.astype",
      configuration: { encode_dtype: "<f2", decode_dtype: "float32" },
    });
    expect((await build(categorize, { labels: ["x"] }, "string")).toJSON()).toEqual({
      name: "numcodecs.categorize",
      configuration: { labels: ["x"], dtype: "|O", astype: "|u1" },
    });
    expect((await build(packBits, {}, "bool")).toJSON()).toEqual({ name: "packbits", configuration: { padding_encoding: "none" } });
    expect((await build(fletcher32Codec, {})).toJSON()).toEqual({ name: "numcodecs.fletcher32", configuration: {} });
    expect((await build(jenkinsLookup3Codec, {})).toJSON()).toEqual({ name: "numcodecs.jenkins_lookup3", configuration: { initval: 0 } });
    expect((await build(json2, { indent: 2 }, "string")).toJSON().configuration.separators).toEqual([", ", ": "]);
  });
});
