/**
 * `zarr get --select` by dimension name (`time=0:10, lat=5`): the parser, then whole `zarr
 * get` runs against the positional selection they stand for, and the coded errors.
 */
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createArray, set, slice } from "@zarr/core";
import { FileSystemStore } from "@zarr/store-fs";
import { beforeAll, describe, expect, it } from "vitest";
import { parseSelectOption } from "../src/select-option.js";
import { zarr, zarrOk } from "./helpers.js";

describe("parseSelectOption", () => {
  it("reads positional selections as before", () => {
    expect(parseSelectOption("0:10, 5")).toEqual([slice(0, 10), 5]);
    expect(parseSelectOption("[1, 4], ...")).toEqual([[1, 4], "..."]);
  });

  it("reads entries by name, each as the selection of one dimension", () => {
    expect(parseSelectOption("time=0:10,lat=5")).toEqual({ time: slice(0, 10), lat: 5 });
    expect(parseSelectOption(" time = ::-2 , lon=[3, 1] , mask=[true, false]")).toEqual({ time: slice(null, null, -2), lon: [3, 1], mask: [true, false] });
    expect(parseSelectOption("air temp=-1")).toEqual({ "air temp": -1 });
  });

  it("refuses mixed, repeated and ellipsis entries with INVALID_SELECTION", () => {
    for (const [text, message] of [
      ["time=0:10, 5", /mixes entries by name and by position/],
      ["5, time=0:10", /mixes entries by name and by position/],
      ["time=1, time=2", /names dimension "time" twice/],
      ["time=...", /"\.\.\." cannot be the selection of dimension "time"/],
      ["time=", /Empty selection of dimension "time"/],
      ["lat=1, time= ", /Empty selection of dimension "time"/],
      ["time=a", /"a" is not an integer/],
    ] as const) {
      expect(() => parseSelectOption(text), text).toThrow(expect.objectContaining({ code: "INVALID_SELECTION", message: expect.stringMatching(message) }));
    }
  });
});

describe("zarr get --select NAME=SEL", () => {
  const store = path.join(mkdtempSync(path.join(os.tmpdir(), "zarr-named-")), "d.zarr");
  const values = Int32Array.from({ length: 4 * 5 * 6 }, (_, i) => i);

  beforeAll(async () => {
    const fs = new FileSystemStore(store);
    const cube = await createArray(fs, "cube", { shape: [4, 5, 6], chunkShape: [2, 2, 3], dataType: "int32", dimensionNames: ["time", "lat", "lon"] });
    await set(cube, null, values);
    const plain = await createArray(fs, "plain", { shape: [3], chunkShape: [3], dataType: "int32" });
    await set(plain, null, 7);
  });

  const json = async (args: string[]) => JSON.parse((await zarrOk(["get", store, ...args])).stdout.toString());

  it("reads what the positional selection of the same dimensions reads", async () => {
    for (const [named, positional] of [
      ["time=0:2,lat=3", "0:2, 3, :"],
      ["lon=5, time=-1", "-1, :, 5"],
      ["lat=[4, 0], lon=::2", ":, [4, 0], ::2"],
      ["time=1", "1"],
    ]) {
      const byName = await json(["cube", "--select", named]);
      expect(byName, named).toEqual(await json(["cube", "--select", positional]));
    }
    expect((await json(["cube", "--select", "time=3, lat=4, lon=5"])).values).toEqual([String(values[values.length - 1])]);
  });

  it("fails with INVALID_SELECTION naming an unknown dimension and the array's names", async () => {
    const r = await zarr(["get", store, "cube", "--select", "depth=0"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('zarr: [INVALID_SELECTION] Unknown dimension name "depth": the dimensions of "cube" are named "time", "lat", "lon"');
    const unnamed = await zarr(["get", store, "plain", "--select", "x=0"]);
    expect(unnamed.code).toBe(1);
    expect(unnamed.stderr).toMatch(/\[INVALID_SELECTION\] Array "plain" has no dimension names/);
    const mixed = await zarr(["get", store, "cube", "--select", "time=0, 1"]);
    expect(mixed.stderr).toMatch(/\[INVALID_SELECTION\] .*mixes entries by name and by position/);
  });
});
