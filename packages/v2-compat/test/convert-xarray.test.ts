/** Converting arrays written by xarray: their fill_value becomes a `_FillValue` attribute, which xarray reads for v3. */
import { MemoryStore, openArray, openGroup } from "@zarr/core";
import { describe, expect, it } from "vitest";
import { convert, createArrayV2, createGroupV2 } from "../src/index.js";
import { fullRegistry } from "./helpers.js";

async function convertedAttributes(options: Parameters<typeof createArrayV2>[2]) {
  const registry = fullRegistry();
  const source = new MemoryStore();
  await createGroupV2(source, "", { registry });
  await createArrayV2(source, "v", { registry, ...options });
  const target = new MemoryStore();
  await convert(await openGroup(source, "", { registry }), { target, registry });
  return (await openArray(target, "v", { registry })).attributes;
}

describe("convert writes xarray's _FillValue attribute for v3", () => {
  it("packed int16 with _ARRAY_DIMENSIONS: the fill_value as a number", async () => {
    const attrs = await convertedAttributes({ shape: [2], dtype: "<i2", fillValue: -32767, dimensionNames: ["x"], attributes: { scale_factor: 0.01 } });
    expect(attrs).toEqual({ _ARRAY_DIMENSIONS: ["x"], scale_factor: 0.01, _FillValue: -32767 });
  });

  it("floats: base64 of a little-endian float64, as xarray's FillValueCoder writes (NaN too)", async () => {
    expect((await convertedAttributes({ shape: [2], dtype: "<f4", fillValue: -9999, dimensionNames: ["x"] }))._FillValue).toBe("AAAAAICHw8A=");
    expect((await convertedAttributes({ shape: [2], dtype: "<f8", fillValue: Number.NaN, dimensionNames: ["x"] }))._FillValue).toBe("AAAAAAAA+H8=");
  });

  it("no attribute for fill_value null, for arrays without _ARRAY_DIMENSIONS, or when one is there already", async () => {
    expect(await convertedAttributes({ shape: [2], dtype: "<i2", fillValue: null, dimensionNames: ["x"] })).toEqual({ _ARRAY_DIMENSIONS: ["x"] });
    expect(await convertedAttributes({ shape: [2], dtype: "<i2", fillValue: 5 })).toEqual({});
    const kept = await convertedAttributes({ shape: [2], dtype: "<i2", fillValue: 5, dimensionNames: ["x"], attributes: { _FillValue: 7 } });
    expect(kept._FillValue).toBe(7);
  });
});
