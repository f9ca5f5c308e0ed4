import { join } from "node:path";
import { expect, it } from "vitest";
import { runReadmeExamples } from "../../../scripts/readme-examples.mjs";

it("the README examples run", () => {
  const [first, second, third] = runReadmeExamples(join(import.meta.dirname, ".."));
  expect(first).toContain("prefixes: [ 't2m' ]");
  expect(first).toContain("Float32Array(4) [ 280.5, 281, 279.25, 283 ]");
  expect(first).toContain("hello ");
  expect(first).toContain("archive: 'data.zip'");
  expect(first).toContain("cbf43926");
  expect(first).toContain("KEY_INVALID");
  expect(first).toContain("STORE_FAILED");
  expect(second).toContain("title: 'zipped'");
  expect(second).toContain("prefixes: [ 'child' ]");
  // The writable store: reads before close see the rewrite, close writes 4 entries, reopened read-only.
  expect(third).toContain("Float32Array(4) [ 1, 2, 279.25, 283 ]\n{ entries: 4, size:");
  expect(third).toContain("STORE_READ_ONLY");
  expect(third).toContain("{ title: 'zipped as written' } Float32Array(4) [ 1, 2, 279.25, 283 ]");
  expect(third).toContain("{ keys: [ 'a.txt' ], prefixes: [] } second");
});
