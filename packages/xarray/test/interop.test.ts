import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { registry } from "@zarr/all";
import { MemoryStore } from "@zarr/core";
import { FileSystemStore } from "@zarr/store-fs";
import { convert } from "@zarr/v2-compat";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDecoded, openDataset } from "../src/index.js";
import { asDumped, dumpedDtype, requireXarray, type XarrayDump, xarrayPeer } from "./helpers.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "zarr-xarray-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let written = false;
function datasets(): string {
  requireXarray();
  if (!written) {
    xarrayPeer("write", dir);
    written = true;
  }
  return dir;
}

/** Every variable of the store decodes to xarray's values, with its dimensions, dtype and attributes. */
async function expectSameAsXarray(name: string) {
  const path = join(datasets(), name);
  const expected = JSON.parse(xarrayPeer("dump", path)) as XarrayDump;
  const ds = await openDataset(new FileSystemStore(path));
  expect(ds.dims).toEqual(expected.dims);
  expect([...ds.coords].sort()).toEqual(expected.coords);
  expect([...ds.dataVars].sort()).toEqual(expected.data_vars);
  expect(ds.attributes).toEqual(expected.attrs);
  expect(Object.keys(ds.variables).sort()).toEqual(Object.keys(expected.variables).sort());
  for (const [varName, want] of Object.entries(expected.variables)) {
    const variable = ds.variables[varName];
    const decoded = await getDecoded(variable);
    expect({ name: varName, dims: variable.dims, attrs: variable.attributes }).toEqual({ name: varName, dims: want.dims, attrs: want.attrs });
    expect({ name: varName, dtype: dumpedDtype(decoded, want.dtype) }).toEqual({ name: varName, dtype: want.dtype });
    expect({ name: varName, values: asDumped(decoded) }).toEqual({ name: varName, values: want.values });
  }
  return ds;
}

describe("datasets written by xarray 2023.01 decode to xarray.open_zarr(...).load()", () => {
  it("packed int16 with scale_factor/add_offset/_FillValue, packed without a fill value, missing_value", async () => {
    const ds = await expectSameAsXarray("packed.zarr");
    expect(ds.variables.t2m.encoding).toEqual({ scale_factor: 0.01, add_offset: 273.15, _FillValue: -32767 });
    expect(ds.variables.rain.encoding).toEqual({ missing_value: -999, _FillValue: Number.NaN }); // the float array's fill_value "NaN", as xarray reports it
  });

  it("times: standard across 1582-10-15, gregorian, noleap, 360_day, julian, hours since in proleptic_gregorian", async () => {
    const ds = await expectSameAsXarray("times.zarr");
    expect(ds.variables.d360.encoding).toEqual({ units: "days since 2000-02-28", calendar: "360_day", _FillValue: Number.NaN });
    const standard = await getDecoded(ds.variables.standard);
    expect(standard.kind).toBe("cftime"); // Julian dates before 1582-10-15: a Date would name another day
    const hours = await getDecoded(ds.variables.hours);
    expect(hours.kind).toBe("datetime");
  });

  it("string coordinates: fixed-width unicode, bytes and variable-length", async () => {
    await expectSameAsXarray("strings.zarr");
  });

  it("2-D lat/lon named by a coordinates attribute", async () => {
    const ds = await expectSameAsXarray("curvilinear.zarr");
    expect(String(ds.variables.tas.encoding.coordinates).split(" ").sort()).toEqual(["lat", "lon"]);
  });
});

describe("zarr convert of an xarray dataset", () => {
  it("writes _FillValue for v3, so packed int16 decodes to xarray's values of the v2 source", async () => {
    const path = join(datasets(), "packed.zarr");
    const expected = JSON.parse(xarrayPeer("dump", path)) as XarrayDump;
    const target = new MemoryStore();
    const source = await openDataset(new FileSystemStore(path));
    await convert(source.group, { target, registry });
    const converted = await openDataset(target);
    expect(converted.group.zarrFormat).toBe(3);
    expect(converted.variables.t2m.array.attributes._FillValue).toBe(-32767);
    expect(converted.variables.t2m.array.metadata.dimension_names).toEqual(["y", "x"]);
    for (const [name, want] of Object.entries(expected.variables)) {
      const decoded = await getDecoded(converted.variables[name]);
      expect({ name, values: asDumped(decoded), dtype: decoded.kind === "number" && decoded.dtype }).toEqual({ name, values: want.values, dtype: want.dtype });
    }
  });
});
