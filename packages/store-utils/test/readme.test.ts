import { join } from "node:path";
import { expect, it } from "vitest";
import { runReadmeExamples } from "../../../scripts/readme-examples.mjs";

it("the README example runs", () => {
  const [out] = runReadmeExamples(join(import.meta.dirname, ".."));
  expect(out).toContain("progress: 6/6 keys");
  expect(out).toMatch(/\{ total: 6, copied: 6, skipped: 0, bytes: \d+ \}/);
  expect(out).toContain("\n6\n");
  expect(out).toContain("3 1\n");
  expect(out).toContain("[ 't2m/zarr.json', 't2m/c/0/0', 't2m/c/0/1' ]");
  expect(out).toContain("2 2\n");
  expect(out).toMatch(/get "t2m\/zarr.json": \d+ B in … ms/);
  expect(out).toContain('getRange "t2m/c/0/0" bytes=-8: 8 B in … ms');
});
