import { registry } from "@zarr/all";
import { consolidateMetadata, createArray, createGroup, MemoryStore, openGroup, set, slice } from "@zarr/core";
import { describe, expect, it } from "vitest";
import { getDecoded, openDataset, writeDataset } from "../src/index.js";

async function sample() {
  const store = new MemoryStore();
  await writeDataset(store, "run/1", {
    attributes: { title: "sample", coordinates: "height" },
    variables: {
      time: { dims: ["time"], data: [new Date("2000-01-01Z"), new Date("2000-01-02Z")], encoding: { units: "days since 2000-01-01" } },
      x: { dims: ["x"], data: [10, 20, 30] },
      height: { dims: [], shape: [], data: [2] },
      t: { dims: ["time", "x"], shape: [2, 3], data: [1, 2, 3, 4, Number.NaN, 6], encoding: { dtype: "int16", scale_factor: 0.5, _FillValue: -1 } },
    },
  });
  return store;
}

describe("openDataset", () => {
  it("Zarr v3: dimension_names, 1-D coordinates named like their dimension, a global coordinates attribute", async () => {
    const ds = await openDataset(await sample(), "run/1");
    expect(ds.dims).toEqual({ time: 2, x: 3 });
    expect(ds.coords).toEqual(["height", "time", "x"]);
    expect(ds.dataVars).toEqual(["t"]);
    expect(ds.attributes).toEqual({ title: "sample" });
    expect(ds.variables.t.dims).toEqual(["time", "x"]);
    expect(ds.variables.t.attributes).toEqual({});
  });

  it("opens from a group and a path below it, and through consolidated metadata", async () => {
    const store = await sample();
    await consolidateMetadata(store);
    const root = await openGroup(store, "", { registry });
    expect(root.consolidated).toBeDefined();
    const ds = await openDataset(root, "run/1");
    expect(ds.group.path).toBe("run/1");
    expect(Object.keys(ds.variables).sort()).toEqual(["height", "t", "time", "x"]);
  });

  it("getDecoded reads a selection", async () => {
    const ds = await openDataset(await sample(), "run/1");
    const part = await getDecoded(ds.variables.t, [slice(1, 2), slice(1, 3)]);
    expect(part).toMatchObject({ kind: "number", dtype: "float32", shape: [1, 2] });
    expect(Array.from(part.data as Float32Array)).toEqual([Number.NaN, 6]);
    const raw = await getDecoded(ds.variables.t, null, { maskAndScale: false });
    expect(raw).toMatchObject({ kind: "number", dtype: "int16", data: new Int16Array([2, 4, 6, 8, -1, 12]) });
    const days = await getDecoded(ds.variables.time, null, { decodeTimes: false });
    expect(days).toMatchObject({ kind: "number", dtype: "int64" });
  });

  it("a Zarr bool array decodes to booleans", async () => {
    const store = new MemoryStore();
    await createGroup(store, "");
    const flags = await createArray(store, "flags", { shape: [3], dataType: "bool", dimensionNames: ["x"] });
    await set(flags, null, new Uint8Array([1, 0, 1]));
    expect(await getDecoded((await openDataset(store)).variables.flags)).toEqual({ kind: "bool", data: [true, false, true], shape: [3] });
  });

  it("refuses an array without dimension names, and dimensions whose sizes disagree", async () => {
    const store = new MemoryStore();
    await createGroup(store, "");
    await createArray(store, "anon", { shape: [2], dataType: "float32" });
    await expect(openDataset(store)).rejects.toThrow(/The array "anon" has no dimension names/);

    const clash = new MemoryStore();
    await createGroup(clash, "");
    await createArray(clash, "a", { shape: [2], dataType: "float32", dimensionNames: ["x"] });
    const b = await createArray(clash, "b", { shape: [3], dataType: "float32", dimensionNames: ["x"] });
    await set(b, null, 1);
    await expect(openDataset(clash)).rejects.toThrow(expect.objectContaining({ code: "METADATA_INVALID", message: expect.stringContaining('Dimension "x" has size 2') }));
  });

  it("a registry without the codecs the data needs opens the dataset, and reading fails naming the codec", async () => {
    const store = new MemoryStore();
    await writeDataset(store, "", { variables: { v: { dims: ["x"], data: [1] } } }, { zarrFormat: 2 }); // Blosc, as zarr-python 2 writes
    const { createRegistry } = await import("@zarr/core");
    const { v2Format } = await import("@zarr/v2-compat");
    const ds = await openDataset(store, "", { registry: createRegistry([v2Format]) });
    expect(ds.variables.v.dims).toEqual(["x"]);
    expect(ds.variables.v.array.problem?.code).toBe("CODEC_UNKNOWN");
    await expect(getDecoded(ds.variables.v)).rejects.toMatchObject({ code: "CODEC_UNKNOWN", message: expect.stringContaining("blosc") });
  });
});

describe("fill values and bad attributes", () => {
  it("useZarrFillValueAsMask: v3 arrays mask their fill_value only when asked (xarray's default is the attribute)", async () => {
    const store = new MemoryStore();
    await createGroup(store, "");
    const a = await createArray(store, "a", { shape: [3], dataType: "int16", fillValue: 0, dimensionNames: ["x"] });
    await set(a, null, new Int16Array([0, 1, 2]));
    const plain = await openDataset(store);
    expect(plain.variables.a.encoding).toEqual({});
    expect(Array.from((await getDecoded(plain.variables.a)).data as Int16Array)).toEqual([0, 1, 2]);
    const masked = await openDataset(store, "", { useZarrFillValueAsMask: true });
    expect(masked.variables.a.encoding).toEqual({ _FillValue: 0 });
    expect(Array.from((await getDecoded(masked.variables.a)).data as Float32Array)).toEqual([Number.NaN, 1, 2]);
  });

  it("Zarr v2: fill_value null masks nothing; a _FillValue attribute is ignored unless useZarrFillValueAsMask is false", async () => {
    const store = new MemoryStore();
    await writeDataset(store, "", { variables: { v: { dims: ["x"], data: [0, 5], encoding: { dtype: "int16" } } } }, { zarrFormat: 2 });
    const { updateAttributes, openArray } = await import("@zarr/core");
    await updateAttributes(await openArray(store, "v", { registry }), { _FillValue: 5 });
    const ds = await openDataset(store);
    expect(ds.variables.v.encoding).toEqual({});
    expect(Array.from((await getDecoded(ds.variables.v)).data as Int16Array)).toEqual([0, 5]);
    const byAttribute = await openDataset(store, "", { useZarrFillValueAsMask: false });
    expect(Array.from((await getDecoded(byAttribute.variables.v)).data as Float32Array)).toEqual([0, Number.NaN]);
  });

  it("a scale_factor that is not a number fails naming the variable; so does an unknown calendar", async () => {
    const store = new MemoryStore();
    await writeDataset(store, "", {
      variables: {
        v: { dims: ["x"], data: [1], attributes: { scale_factor: "ten" } },
        t: { dims: ["x"], data: [1], attributes: { units: "days since 2000-01-01", calendar: "martian" } },
      },
    });
    const ds = await openDataset(store);
    await expect(getDecoded(ds.variables.v)).rejects.toThrow(
      expect.objectContaining({ code: "METADATA_INVALID", message: 'Cannot decode "v": The scale_factor attribute must be a number, got "ten"' }),
    );
    await expect(getDecoded(ds.variables.t)).rejects.toThrow(expect.objectContaining({ code: "UNSUPPORTED", message: expect.stringMatching(/^Cannot decode "t": Unknown CF calendar "martian"/) }));
    expect((await getDecoded(ds.variables.t, null, { decodeTimes: false })).kind).toBe("number");
  });
});
