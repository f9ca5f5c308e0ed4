import { join } from "node:path";
import { expect, it } from "vitest";
import { runReadmeExamples } from "../../../scripts/readme-examples.mjs";

it("the README examples run and print what they say", () => {
  const [tour, checks, reproject, parts, geotiff, registries] = runReadmeExamples(join(import.meta.dirname, ".."));
  expect(tour).toContain("21 chunks written\n0: 1024×1024 ×1, 1: 512×512 ×2, 2: 256×256 ×4");
  expect(tour).toContain("valid: true findings: 0");
  expect(tour).toContain("EPSG:32633 [ 20, 0, 500000, 0, -20, 5000000 ] parent [ 500000, 4989760, 510240, 5000000 ]");
  expect(tour).toContain("[ 500010, 4999990 ] [ 1.5, 1.5 ]");
  expect(tour).toMatch(/1 1\n\[ 40, 20, 10 \]/);
  expect(tour).toMatch(/2 \[ 25, 25 \] \[ 40, 0, 500000, 0, -40, 5000000 \] \d+\ntrue/);
  expect(checks).toContain("[ 'proj', 'spatial' ] []\n[ 'proj undeclared → v1 rules', 'spatial v0.1 → v0.1 rules' ]");
  expect(checks).toContain("[ 'proj.code-format' ] 0");
  expect(checks).toContain("proj: [ 'spatial:dimensions', 'zarr_conventions' ]");
  expect(checks).toContain("https://raw.githubusercontent.com/zarr-conventions/proj/refs/tags/v0.1/schema.json\nhttps://raw.githubusercontent.com/zarr-experimental/geo-proj/refs/tags/v1/schema.json");
  expect(checks).toContain("61 rules; Appendix › proj: Properties");
  expect(checks).toContain('/ conventions declarations proj v0.1 "proj", spatial v0.1 "spatial" → v1');
  expect(checks).toContain("error multiscales.scale-inconsistent /attributes/multiscales/layout/1/transform/scale");
  expect(checks).toContain("after: true { error: 0, warning: 0, info: 0 }");
  expect(reproject).toContain("[ '15.0000', '45.1535' ]");
  expect(parts).toBe(
    '[ 11, 10 ]\n[ \'2/b04/c/0/0\' ]\nINVALID_ARGUMENT Regions 0 [0:32, 0:64] and 1 [32:64, 0:64] overlap in chunk "2/b04/c/0/0" (level 2, variable b04), which covers [0:64, 0:64]\n',
  );
  expect(geotiff).toContain("[ 'band_1' ] float32 [ 20, 0, 500000, 0, -20, 5000000 ] -9999");
  expect(geotiff).toContain("EPSG:32633 [ 48, 64 ]\n[ 48, 64 ] 0.10000000149011612\nvalid: true");
  expect(geotiff).toContain("48×64 24×32 12×16");
  expect(geotiff).toContain("[ 48, 64 ] [ 48, 64 ] >f4 null 1 [ '{{u}}', 1000, 12288 ]");
  expect(registries).toBe("CODEC_UNKNOWN\nUint8Array(4) [ 0, 1, 4, 5 ] true\nUint8Array(1) [ 3 ]\n");
});
