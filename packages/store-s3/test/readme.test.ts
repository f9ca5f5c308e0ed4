import { join } from "node:path";
import { expect, it } from "vitest";
import { runReadmeExamples } from "../../../scripts/readme-examples.mjs";

it("the README example runs against a real s3rver", () => {
  const [out] = runReadmeExamples(join(import.meta.dirname, ".."));
  expect(out).toContain("hello S3");
  expect(out).toContain("{ keys: [ 'zarr.json' ], prefixes: [ 't2m' ] }");
  expect(out).toContain("Float32Array(6) [ 270, 271, 272, 273, 274, 275 ]");
  expect(out).toContain("STORE_READ_ONLY");
  expect(out).toContain("changed: STORE_CHANGED");
  expect(out).toContain("conditional: hello S5");
  expect(out).toContain("capped: STORE_TOO_LARGE");
  expect(out).toContain("true undefined");
  expect(out).toContain("STORE_FAILED Failed to read key \"zarr.json\" from s3://no-such-bucket/zarr.json: NoSuchBucket (HTTP 404)");
});
