import { join } from "node:path";
import { expect, it } from "vitest";
import { runReadmeExamples } from "../../../scripts/readme-examples.mjs";

it("the README example runs against a local XML API server (s3rver)", () => {
  const [out] = runReadmeExamples(join(import.meta.dirname, ".."));
  expect(out).toContain("gs://demo-bucket/climate.zarr/ hmac false");
  expect(out).toContain("anonymous true");
  expect(out).toContain("{ keys: [ 'zarr.json' ], prefixes: [ 't2m' ] }");
  expect(out).toContain("12 undefined");
  expect(out).toContain("Float32Array(1) [ 275 ]");
  expect(out).toContain("STORE_READ_ONLY");
  expect(out).toContain("{ bucket: 'demo-bucket', prefix: 'climate.zarr', anonymous: true }");
  expect(out).toContain("Float32Array(3) [ 273, 274, 275 ]");
  expect(out).toContain("STORE_FAILED Listing gs://no-such-bucket/ failed: HTTP 404 NoSuchBucket (not retried)");
});
