/** Parsing the option values of `zarr put` (in process). */
import { ZarrError } from "@zarr/spec";
import { describe, expect, it } from "vitest";
import {
  parseAttrsOption,
  parseChunksOption,
  parseCodecsOption,
  parseDataTypeOption,
  parseDimensionNamesOption,
  parseFillValueOption,
} from "../src/put-options.js";

function invalid(fn: () => unknown, pattern: RegExp): void {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ZarrError);
    expect((error as ZarrError).code).toBe("INVALID_ARGUMENT");
    expect((error as ZarrError).message).toMatch(pattern);
    return;
  }
  throw new Error("accepted an invalid value");
}

describe("--fill-value", () => {
  it("takes JSON in the metadata form", () => {
    expect(parseFillValueOption("0")).toBe(0);
    expect(parseFillValueOption('"NaN"')).toBe("NaN");
    expect(parseFillValueOption('"0x7fc00001"')).toBe("0x7fc00001");
    expect(parseFillValueOption("[1, 2]")).toEqual([1, 2]);
    expect(parseFillValueOption('"text"')).toBe("text");
    expect(parseFillValueOption("18446744073709551615")).toBe(18446744073709551615n);
    expect(parseFillValueOption("true")).toBe(true);
  });

  it("takes bare words and bare hex", () => {
    expect(parseFillValueOption("NaN")).toBe("NaN");
    expect(parseFillValueOption("nan")).toBe("NaN");
    expect(parseFillValueOption("Infinity")).toBe("Infinity");
    expect(parseFillValueOption("-inf")).toBe("-Infinity");
    expect(parseFillValueOption("NaT")).toBe("NaT");
    expect(parseFillValueOption("0x7e00")).toBe("0x7e00");
  });

  it("refuses anything else, naming the option", () => {
    invalid(() => parseFillValueOption("seven"), /--fill-value.*"seven"/);
    invalid(() => parseFillValueOption("toString"), /--fill-value/);
    invalid(() => parseFillValueOption("[1,"), /--fill-value/);
  });
});

describe("--chunks", () => {
  it("takes a regular chunk shape", () => {
    expect(parseChunksOption("10,10")).toEqual({ chunkShape: [10, 10] });
    expect(parseChunksOption(" 3 , 4 ")).toEqual({ chunkShape: [3, 4] });
    expect(parseChunksOption("[5, 6]")).toEqual({ chunkShape: [5, 6] });
    expect(parseChunksOption("")).toEqual({ chunkShape: [] });
  });

  it("takes rectilinear edges, keeping runs as written", () => {
    expect(parseChunksOption("[[2, 3, 5], 4]")).toEqual({
      chunkGrid: { name: "rectilinear", configuration: { kind: "inline", chunk_shapes: [[2, 3, 5], 4] } },
    });
    expect(parseChunksOption("[[[1, 3], 4], 2]")).toEqual({
      chunkGrid: { name: "rectilinear", configuration: { kind: "inline", chunk_shapes: [[[1, 3], 4], 2] } },
    });
  });

  it("refuses sizes that are not positive integers", () => {
    invalid(() => parseChunksOption("4,x"), /--chunks.*"x"/);
    invalid(() => parseChunksOption("0"), /--chunks.*0/);
    invalid(() => parseChunksOption("2.5"), /--chunks/);
    invalid(() => parseChunksOption("[[1, 0]]"), /--chunks/);
    invalid(() => parseChunksOption("[[[1, 2, 3]]]"), /run must be/);
    invalid(() => parseChunksOption('{"a": 1}'), /--chunks/);
  });
});

describe("the other options", () => {
  it("--codecs: a list of names or {name, configuration}", () => {
    expect(parseCodecsOption('["bytes", {"name": "transpose", "configuration": {"order": [1, 0]}}]')).toEqual([
      "bytes",
      { name: "transpose", configuration: { order: [1, 0] } },
    ]);
    invalid(() => parseCodecsOption('{"name": "bytes"}'), /list of codecs/);
    invalid(() => parseCodecsOption("[1]"), /codec 0/);
    invalid(() => parseCodecsOption('[{"name": "x", "configuration": 3}]'), /configuration of codec 0/);
  });

  it("--dimension-names, --attrs, --data-type", () => {
    expect(parseDimensionNamesOption("x,y")).toEqual(["x", "y"]);
    expect(parseDimensionNamesOption('["x", null]')).toEqual(["x", null]);
    invalid(() => parseDimensionNamesOption("[1]"), /--dimension-names/);
    expect(parseAttrsOption('{"a": {"b": [1]}}')).toEqual({ a: { b: [1] } });
    invalid(() => parseAttrsOption('"x"'), /--attrs/);
    expect(parseDataTypeOption("string")).toEqual({ name: "string", configuration: {} });
    expect(parseDataTypeOption('"int8"')).toEqual({ name: "int8", configuration: {} });
    expect(parseDataTypeOption('{"name": "fixed_length_utf32", "configuration": {"length_bytes": 8}}')).toEqual({
      name: "fixed_length_utf32",
      configuration: { length_bytes: 8 },
    });
    invalid(() => parseDataTypeOption("two words"), /--data-type/);
    invalid(() => parseDataTypeOption('{"configuration": {}}'), /--data-type/);
  });
});
