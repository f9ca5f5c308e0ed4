import { join } from "node:path";
import { expect, it } from "vitest";
import { runReadmeExamples } from "../../../scripts/readme-examples.mjs";

it("the README examples run", () => {
  const [out, listing] = runReadmeExamples(join(import.meta.dirname, ".."));
  expect(out).toContain("[ 'air temp' ]");
  expect(out.replace(/\s+/g, " ")).toContain("[ 2, 4 ] [ 6, 7, 8, 9, 12, 13, 14, 15 ]");
  expect(out).toContain("STORE_READ_ONLY");
  expect(out).toContain("ABORTED");
  expect(out).toContain("GET /air%20temp/c/0/0 (bytes=-8)");
  expect(out).toContain("HEAD /air%20temp/c/0/0");
  expect(out).toContain("PUT /notes/hello.txt");
  expect(out).toContain("true true");
  expect(out).toContain("24 8");
  expect(out).toContain("no proxy for 127.0.0.1 200");
  expect(out).toContain("GET /air%20temp/c/0/0 (bytes=4-11)");
  expect(out).toContain("piped true 24");
  expect(out).toContain('"v0" STORE_CHANGED');
  expect(out).toContain("STORE_TOO_LARGE");
  expect(listing).toContain("[ 'a&b/zarr.json' ] c/");
  expect(listing).toContain("STORE_FAILED Listing gs://bucket/ failed: HTTP 403 AccessDenied (not retried)");
  expect(listing).not.toContain("SECRET");
  expect(listing).toContain("[ 'other' ]");
  expect(listing).toContain("[ 'b' ]");
  expect(listing).toContain("[ 'zarr.json', 't/zarr.json' ]");
  expect(listing).toContain("false true");
  expect(listing).toContain("{ keys: [ 'zarr.json' ], prefixes: [ 't' ] }");
});
