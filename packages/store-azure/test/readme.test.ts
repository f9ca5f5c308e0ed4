import { join } from "node:path";
import { expect, it } from "vitest";
import { runReadmeExamples } from "../../../scripts/readme-examples.mjs";

it("the README example runs against a real Azurite", () => {
  const [out] = runReadmeExamples(join(import.meta.dirname, ".."));
  expect(out).toContain("container: 201");
  expect(out).toContain("az://climate/era5.zarr/ true false");
  expect(out).toContain("{ keys: [ 'zarr.json' ], prefixes: [ 't2m' ] }");
  expect(out).toContain("Float32Array(1) [ 275 ]");
  expect(out).toContain("STORE_CHANGED");
  expect(out).toContain("sharedKey [ 'zarr.json' ]");
  expect(out).toContain("12 undefined");
  expect(out).toContain("STORE_READ_ONLY");
  expect(out).toContain("endpoint: 'https://myaccount.blob.core.windows.net'");
  expect(out).toContain("Float32Array(3) [ 270, 271, 272 ]");
  expect(out).toContain("true\n");
  expect(out).toContain("STORE_FAILED Listing az://no-such-container/ failed: HTTP 404 ContainerNotFound (not retried)");
});
