/**
 * `zarr get` output: the format inferred from `-o`'s file name, and JSON written in
 * pieces (the same text as `compactJson(toCanonicalJson(...))`), so arrays whose JSON
 * is larger than one string can hold are written too.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { type ArrayData, createArray, set, toCanonicalJson } from "@zarr/core";
import { type DataType, type JsonObject, type Scalar, shapeSize } from "@zarr/spec";
import { FileSystemStore } from "@zarr/store-fs";
import { afterAll, describe, expect, it } from "vitest";
import { getFormat } from "../src/get-output.js";
import { writeCanonicalJson } from "../src/json-stream.js";
import { compactJson } from "../src/json-text.js";
import { cliRegistry } from "../src/registry.js";
import { UsageError } from "../src/usage.js";
import { parseGetJson, removeTempDirs, tempDir, zarr, zarrOk } from "./helpers.js";

afterAll(removeTempDirs);

describe("the format of zarr get", () => {
  it("is --format when given, else json on standard output and for .json files, npy for any other file", () => {
    expect(getFormat("npy", undefined)).toBe("npy");
    expect(getFormat("json", "out.npy")).toBe("json");
    expect(getFormat(undefined, undefined)).toBe("json");
    expect(getFormat(undefined, "out.json")).toBe("json");
    expect(getFormat(undefined, "dir.d/OUT.JSON")).toBe("json");
    for (const file of ["out.npy", "/dev/null", "out", "out.bin", "a.json/b", "out.json.gz"]) {
      expect(getFormat(undefined, file), file).toBe("npy");
    }
    expect(() => getFormat("csv", undefined)).toThrow(UsageError);
  });
});

async function dataType(definition: string | JsonObject): Promise<DataType> {
  const name = typeof definition === "string" ? definition : (definition.name as string);
  const configuration = typeof definition === "string" ? {} : (definition.configuration as JsonObject);
  return (await cliRegistry().dataType(name)).fromConfig(name, configuration, ["data_type"]);
}

async function arrayData(definition: string | JsonObject, shape: number[], values: Scalar[]): Promise<ArrayData> {
  const dt = await dataType(definition);
  const data = dt.allocate(shapeSize(shape));
  for (const [i, v] of values.entries()) dt.setItem(data, i, dt.coerce(v));
  const stride = shape.map((_, d) => shapeSize(shape.slice(d + 1)));
  return { data, shape, stride, dataType: dt };
}

/** The text writeCanonicalJson produces with pieces of `pieceChars`, and the pieces' lengths. */
async function streamed(result: ArrayData, pieceChars: number): Promise<{ text: string; pieces: number[] }> {
  const pieces: string[] = [];
  await writeCanonicalJson(result, async (t) => void pieces.push(t), pieceChars);
  return { text: pieces.join(""), pieces: pieces.map((p) => p.length) };
}

describe("JSON in pieces", () => {
  it("is the text of compactJson(toCanonicalJson(result)), for every kind of value", async () => {
    const cases: [string | JsonObject, number[], Scalar[]][] = [
      ["float32", [2, 3], [0, -0, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1.5]],
      ["float64", [3], [1e300, -2.5e-310, 0.1]],
      ["int64", [2], [-(2n ** 63n), 2n ** 63n - 1n]],
      ["uint8", [4], [0, 1, 254, 255]],
      ["bool", [2], [true, false]],
      ["complex64", [2], [[1, -0], [Number.NaN, 2]]],
      ["string", [3], ["a\"b\\c", "ünï\u{1F600}", ""]],
      [{ name: "fixed_length_utf32", configuration: { length_bytes: 8 } }, [2], ["ab", ""]],
      ["float32", [0, 4], []],
      ["int16", [], [7]],
    ];
    for (const [definition, shape, values] of cases) {
      const result = await arrayData(definition, shape, values);
      const expected = `${compactJson(toCanonicalJson(result))}\n`;
      for (const pieceChars of [1, 5, 1 << 20]) expect((await streamed(result, pieceChars)).text, JSON.stringify(definition)).toBe(expected);
    }
  });

  it("hands over pieces of about the size asked for, never the whole text at once", async () => {
    const n = 100_000;
    const result = await arrayData("float64", [n], Array.from({ length: n }, (_, i) => i / 3));
    const { text, pieces } = await streamed(result, 4096);
    expect(text.length).toBeGreaterThan(1_000_000);
    expect(pieces.length).toBeGreaterThan(text.length / 4200);
    expect(Math.max(...pieces)).toBeLessThan(4096 + 64);
    expect(parseGetJson(text).values[n - 1]).toBe((n - 1) / 3);
  });
});

describe("zarr get -o", () => {
  it("writes npy for a file without .json, JSON for .json and standard output, of a few MB that parse back", async () => {
    const store = path.join(tempDir(), "o.zarr");
    const shape = [512, 1024];
    const values = Float32Array.from({ length: shapeSize(shape) }, (_, i) => Math.sin(i / 100) * 1000);
    const array = await createArray(new FileSystemStore(store), "x", {
      shape,
      chunkShape: [256, 256],
      dataType: "float32",
      registry: cliRegistry(),
    });
    await set(array, null, { data: values, shape });
    const dir = tempDir();
    const files = { json: path.join(dir, "x.json"), plain: path.join(dir, "x"), npy: path.join(dir, "x.npy") };
    for (const file of Object.values(files)) await zarrOk(["get", store, "x", "-o", file]);
    const parsed = parseGetJson(readFileSync(files.json, "utf8"));
    expect(parsed.shape).toEqual(shape);
    expect(parsed.values).toHaveLength(values.length);
    expect((parsed.values as number[]).every((v, i) => Math.fround(v) === values[i])).toBe(true);
    const npy = readFileSync(files.npy);
    expect(npy.subarray(0, 6).toString("latin1")).toBe("\x93NUMPY");
    expect(readFileSync(files.plain).equals(npy)).toBe(true);
    expect(npy.length).toBeGreaterThan(values.byteLength);
    const stdout = await zarrOk(["get", store, "x", "--select", "0, :3"]);
    expect(parseGetJson(stdout.stdout.toString()).values).toEqual([...values.subarray(0, 3)]);
    const devNull = await zarr(["get", store, "x", "-o", "/dev/null"]);
    expect([devNull.code, devNull.stderr]).toEqual([0, ""]);
  });
});
