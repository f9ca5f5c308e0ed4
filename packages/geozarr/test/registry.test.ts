/**
 * Which registry the helpers read data through: the one given, else the opened group's
 * or array's (kept by the loaded hierarchy), else @zarr/core's defaultRegistry, as `open`.
 */
import { gzip } from "@zarr/codec-gzip";
import { createArray, createGroup, createRegistry, MemoryStore, openArray, openGroup, set } from "@zarr/core";
import { describe, expect, it } from "vitest";
import { buildPyramid, effectiveGeoreference, loadHierarchy, migrate, readBbox } from "../src/index.js";
import { dataset } from "./helpers.js";

const H = 20;
const W = 30;
const registry = createRegistry([gzip]);

/** A Dataset whose band is gzip-compressed: core's defaultRegistry cannot decode it. */
async function gzipDataset(): Promise<MemoryStore> {
  const store = (await dataset({}, { shape: [H, W] })) as MemoryStore;
  const band = await createArray(store, "b", {
    shape: [H, W],
    chunkShape: [8, 8],
    dataType: "int16",
    dimensionNames: ["y", "x"],
    codecs: ["bytes", { name: "gzip", configuration: { level: 1 } }],
    registry,
  });
  await set(band, null, Int16Array.from({ length: H * W }, (_, i) => i));
  return store;
}

const BOX = [500000, 4999980, 500020, 5000000] as const; // the top-left 2×2 pixels

describe("helpers resolve codecs through the source's registry", () => {
  it("a store alone uses core's defaultRegistry (as open does): gzip is unknown there", async () => {
    const store = await gzipDataset();
    await expect(readBbox(store, { variable: "b", bbox: [...BOX] })).rejects.toMatchObject({ code: "CODEC_UNKNOWN" });
    await expect(buildPyramid(store, new MemoryStore(), { minSize: 5 })).rejects.toMatchObject({ code: "CODEC_UNKNOWN" });
  });

  it("an opened group's registry reaches readBbox, buildPyramid and the loaded hierarchy", async () => {
    const store = await gzipDataset();
    const group = await openGroup(store, "", { registry });
    const h = await loadHierarchy(group);
    expect(h.registry).toBe(registry);
    for (const source of [group, h]) {
      const r = await readBbox(source, { variable: "b", bbox: [...BOX] });
      expect(Array.from(r.data as Int16Array)).toEqual([0, 1, 30, 31]);
    }
    const target = new MemoryStore();
    await buildPyramid(group, target, { minSize: 5 });
    // The levels keep the source's codecs, written and read through the same registry.
    const level = await openArray(target, "1/b", { registry });
    expect(level.metadata.codecs.map((c) => c.name)).toEqual(["bytes", "gzip"]);
    const box = await readBbox(await openGroup(target, "", { registry }), { variable: "b", level: 1, bbox: [500000, 4999980, 500020, 5000000] });
    expect(Array.from(box.data as Int16Array)).toEqual([Math.round((0 + 1 + 30 + 31) / 4)]);
  });

  it("an opened array's registry, and an explicit registry over a store", async () => {
    const store = await gzipDataset();
    const h = await loadHierarchy(await openArray(store, "b", { registry }));
    expect(h.registry).toBe(registry);
    const fromStore = await loadHierarchy(store, { registry });
    expect(fromStore.registry).toBe(registry);
    const r = await readBbox(fromStore, { variable: "b", bbox: [...BOX] });
    expect(r.shape).toEqual([2, 2]);
  });

  it("migrate reads gzip coordinate arrays through an opened group's registry", async () => {
    const store = new MemoryStore();
    await createGroup(store, "", { attributes: {} });
    const n = 6;
    const gz = ["bytes", { name: "gzip", configuration: { level: 1 } }];
    const band = await createArray(store, "band", { shape: [n, n], dataType: "uint8", dimensionNames: ["y", "x"], attributes: { _CRS: { url: "http://www.opengis.net/def/crs/EPSG/0/32631" } } });
    await set(band, null, 1);
    const x = await createArray(store, "x", { shape: [n], dataType: "float64", dimensionNames: ["x"], codecs: gz, registry });
    await set(x, null, Float64Array.from({ length: n }, (_, i) => 300000 + (i + 0.5) * 30));
    const y = await createArray(store, "y", { shape: [n], dataType: "float64", dimensionNames: ["y"], codecs: gz, registry });
    await set(y, null, Float64Array.from({ length: n }, (_, i) => 4000000 - (i + 0.5) * 30));
    // Through a bare store the coordinates cannot be decoded: no transform is derived.
    const bare = await migrate(store, { dryRun: true });
    expect(bare.notes.some((note) => note.includes("could not read the coordinate array"))).toBe(true);
    await migrate(await openGroup(store, "", { registry }));
    const h = await loadHierarchy(store, { registry });
    expect(effectiveGeoreference(h, "band")).toMatchObject({ crs: { code: "EPSG:32631" }, transform: [30, 0, 300000, 0, -30, 4000000] });
  });
});
