import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemoryStore } from "@zarr/core";
import { FileSystemStore } from "@zarr/store-fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatasetSpec, getDecoded, openDataset, writeDataset } from "../src/index.js";
import { asDumped, requireXarray, type XarrayDump, xarrayPeer } from "./helpers.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "zarr-xarray-rt-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const temperatures = [280.15, Number.NaN, 250, 300.25, 299.99, 273.15];
const spec: DatasetSpec = {
  attributes: { title: "round trip" },
  variables: {
    time: {
      dims: ["time"],
      data: [new Date("2000-01-01T00:00Z"), new Date("2000-01-01T06:00Z"), new Date("2000-03-01T12:30Z")],
      encoding: { units: "hours since 2000-01-01", calendar: "proleptic_gregorian" },
    },
    station: { dims: ["station"], data: ["Brest", "Zürich"] },
    coastal: { dims: ["station"], data: [true, false] },
    t: {
      dims: ["time", "station"],
      shape: [3, 2],
      data: temperatures,
      attributes: { units: "K" },
      encoding: { dtype: "int16", scale_factor: 0.01, add_offset: 273.15, _FillValue: -32767 },
    },
    model_day: {
      dims: ["time"],
      data: [
        { year: 2000, month: 2, day: 30 },
        { year: 2001, month: 12, day: 30, hour: 18 },
        { year: 1999, month: 1, day: 1 },
      ],
      encoding: { units: "days since 2000-01-01", calendar: "360_day" },
    },
    old: {
      dims: ["time"],
      data: [
        { year: 1582, month: 10, day: 4 },
        { year: 1582, month: 10, day: 15 },
        { year: 1000, month: 2, day: 29 },
      ],
      encoding: { units: "days since 1582-10-15", calendar: "standard" },
    },
  },
};

describe("what writeDataset writes, xarray reads with the same values", () => {
  it("Zarr v2 (what xarray 2023.01 reads): packed int16, dates in three calendars, strings", async () => {
    requireXarray();
    const path = join(dir, "ours-v2.zarr");
    await writeDataset(new FileSystemStore(path), "", spec, { zarrFormat: 2 });
    const seen = JSON.parse(xarrayPeer("dump", path)) as XarrayDump;
    expect(seen.coords.sort()).toEqual(["station", "time"]);
    expect(seen.attrs).toEqual({ title: "round trip" });
    expect(seen.variables.t.attrs).toEqual({ units: "K" });
    expect(seen.variables.t.dtype).toBe("float32");
    seen.variables.t.values.forEach((v, i) => {
      if (Number.isNaN(temperatures[i])) expect(v).toBeNull();
      else expect(Math.abs((v as number) - temperatures[i])).toBeLessThan(0.005 + 1e-4);
    });
    expect(seen.variables.time.values).toEqual(["2000-01-01T00:00:00.000000", "2000-01-01T06:00:00.000000", "2000-03-01T12:30:00.000000"]);
    expect(seen.variables.station.values).toEqual(["Brest", "Zürich"]);
    expect(seen.variables.coastal).toMatchObject({ dtype: "bool", values: [true, false] });
    const parts = (y: number, m: number, d: number, hour = 0) => ({ year: y, month: m, day: d, hour, minute: 0, second: 0, microsecond: 0 });
    expect(seen.variables.model_day.values).toEqual([parts(2000, 2, 30), parts(2001, 12, 30, 18), parts(1999, 1, 1)]);
    expect(seen.variables.old.values).toEqual([parts(1582, 10, 4), parts(1582, 10, 15), parts(1000, 2, 29)]);

    // and our own reader agrees with xarray on every variable
    const ds = await openDataset(new FileSystemStore(path));
    for (const [name, variable] of Object.entries(ds.variables)) {
      expect({ name, values: asDumped(await getDecoded(variable)) }).toEqual({ name, values: seen.variables[name].values });
    }
  });

  it("Zarr v3: _FillValue is written as an attribute (as xarray writes and reads it for v3) and decodes back", async () => {
    const store = new MemoryStore();
    const { arrays } = await writeDataset(store, "ds", spec);
    expect(arrays.t.attributes._FillValue).toBe(-32767);
    expect(arrays.t.metadata.dimension_names).toEqual(["time", "station"]);
    const ds = await openDataset(store, "ds");
    expect(ds.variables.t.encoding).toEqual({ scale_factor: 0.01, add_offset: 273.15, _FillValue: -32767 });
    const t = await getDecoded(ds.variables.t);
    expect(t.kind === "number" && t.dtype).toBe("float32");
    expect(asDumped(t)).toEqual([280.1499938964844, null, 250, 300.25, 299.989990234375, 273.1499938964844]);
    const days = await getDecoded(ds.variables.model_day);
    expect(days.kind).toBe("cftime");
    expect(days.kind === "cftime" && days.data[0]).toMatchObject({ year: 2000, month: 2, day: 30, calendar: "360_day" });
  });

  it("Zarr v3: a float _FillValue attribute is base64 of a little-endian float64, as xarray's FillValueCoder writes it", async () => {
    const store = new MemoryStore();
    const { arrays } = await writeDataset(store, "", {
      variables: { v: { dims: ["x"], data: new Float32Array([1, Number.NaN]), encoding: { _FillValue: -9999 } } },
    });
    expect(arrays.v.attributes._FillValue).toBe("AAAAAICHw8A="); // base64 of struct.pack("<d", -9999.0)
    const ds = await openDataset(store);
    expect(ds.variables.v.encoding._FillValue).toBe(-9999);
    expect(asDumped(await getDecoded(ds.variables.v))).toEqual([1, null]);
  });
});
