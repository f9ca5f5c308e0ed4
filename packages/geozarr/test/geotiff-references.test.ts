/**
 * geoTiffReferences without GDAL: TIFFs from geotiff's own writer (big-endian, one strip),
 * the references read back through a store built from them, and hostile TIFFs (truncated,
 * bytes flipped) that must give a coded ZarrError or a consistent reference set, never a crash.
 * (GDAL-made TIFFs of every layout and compression: packages/cli/test/refs-geotiff.test.ts.)
 */
import { createRegistry, get, MemoryStore, openArray, openGroup } from "@zarr/core";
import { ZarrError } from "@zarr/spec";
import * as v2 from "@zarr/v2-compat";
import fc from "fast-check";
import { writeArrayBuffer } from "geotiff";
import { describe, expect, it } from "vitest";
import { type GeoTiffReferenceSet, geoTiffReferences } from "../src/geotiff.js";

const W = 40;
const H = 30;
const pixels = Float32Array.from({ length: W * H }, (_, i) => (i % 13 === 0 ? -9999 : Math.sin(i) * 100));
const tiff = new Uint8Array(
  writeArrayBuffer(pixels, {
    width: W,
    height: H,
    ModelPixelScale: [30, 30, 0],
    ModelTiepoint: [0, 0, 0, 300000, 4000000, 0],
    ProjectedCSTypeGeoKey: 32618,
    GTModelTypeGeoKey: 1,
    GDAL_NODATA: "-9999",
  }) as ArrayBuffer,
);

/** A store holding what the references say: inline text and base64, and byte ranges of `file`. */
async function storeOf(refs: GeoTiffReferenceSet, file: Uint8Array): Promise<MemoryStore> {
  const store = new MemoryStore();
  for (const [key, ref] of Object.entries(refs.refs)) {
    if (typeof ref === "string") {
      await store.set(key, ref.startsWith("base64:") ? Uint8Array.from(atob(ref.slice(7)), (c) => c.charCodeAt(0)) : new TextEncoder().encode(ref));
    } else {
      expect(ref[0]).toBe("{{u}}");
      await store.set(key, file.slice(ref[1], ref[1] + ref[2]));
    }
  }
  return store;
}

const registry = createRegistry([v2.v2Format]);

describe("geoTiffReferences (geotiff's writer)", () => {
  it("references a big-endian one-strip float32 TIFF: values, coordinates, georeferencing", async () => {
    const result = await geoTiffReferences(tiff, { target: "https://example.com/a.tif" });
    expect(result.dtype).toBe(">f4");
    expect(result.layout.tiled).toBe(false);
    expect(result.chunks).toEqual([H, W]);
    expect(result.nodata).toBe(-9999);
    expect(result.references.templates.u).toBe("https://example.com/a.tif");
    const store = await storeOf(result.references, tiff);
    const data = await get(await openArray(store, "data", { registry }), null);
    expect(Array.from(data.data as Float32Array)).toEqual(Array.from(pixels));
    const x = await get(await openArray(store, "x", { registry }), null);
    const y = await get(await openArray(store, "y", { registry }), null);
    expect([x.data[0], x.data[W - 1], y.data[0], y.data[H - 1]]).toEqual([300015, 300000 + 30 * W - 15, 3999985, 4000000 - 30 * H + 15]);
    const group = await openGroup(store, "", { registry });
    expect(group.attributes["proj:code"]).toBe("EPSG:32618");
    expect(group.attributes["spatial:transform"]).toEqual([30, 0, 300000, 0, -30, 4000000]);
  });

  it("needs a target for a buffer and a usable array name", async () => {
    await expect(geoTiffReferences(tiff)).rejects.toMatchObject({ code: "INVALID_ARGUMENT", message: expect.stringContaining("options.target") });
    await expect(geoTiffReferences(tiff, { target: "a.tif", name: "y" })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await expect(geoTiffReferences(tiff, { target: "a.tif", name: "a/b" })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
  });

  it("a truncated file is a coded error naming the problem", async () => {
    for (const n of [0, 7, 100, tiff.length - 200, tiff.length - 1]) {
      const cut = tiff.slice(0, n);
      const outcome = await geoTiffReferences(cut, { target: "a.tif" }).then(
        (r) => r,
        (e) => e,
      );
      // Only the pixel bytes may be cut without touching the header: then the strip is past the end.
      expect(outcome, `cut at ${n}`).toBeInstanceOf(ZarrError);
    }
  });

  it("flipped bytes: a ZarrError or references inside the file, never a crash (fast-check)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.nat(tiff.length - 1), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 8 }), async (flips) => {
        const bad = tiff.slice();
        for (const [at, mask] of flips) bad[at] ^= mask;
        try {
          const r = await geoTiffReferences(bad, { target: "a.tif" });
          for (const ref of Object.values(r.references.refs)) {
            if (typeof ref !== "string") expect(ref[1] + ref[2]).toBeLessThanOrEqual(bad.length);
          }
        } catch (error) {
          expect(error, String(error)).toBeInstanceOf(ZarrError);
        }
      }),
      { numRuns: 300, seed: 24 },
    );
  });
});
