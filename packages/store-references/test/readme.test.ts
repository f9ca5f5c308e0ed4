import { join } from "node:path";
import { expect, it } from "vitest";
import { runReadmeExamples } from "../../../scripts/readme-examples.mjs";

it("the README example runs", () => {
  const [out] = runReadmeExamples(join(import.meta.dirname, ".."));
  expect(out).toContain("[ 10, 20, 30, -1, -2, -3 ]");
  expect(out).toContain("6 [ '.zarray', '0', '1' ]");
  expect(out).toContain("{ kind: 'range', url: 's3://bucket/f.nc', offset: 8, length: 100 }");
  expect(out).toContain('{"zarr_format": 2}');
  expect(out).toContain('METADATA_INVALID Invalid reference document "refs.json" at key "a/0": the offset must be a non-negative integer');
  expect(out).toContain("{ folder: 's3://bucket/data', key: 'f.nc' } c/2.1");
  expect(out).toContain("true function 10000000");
});
