import { join } from "node:path";
import { expect, it } from "vitest";
import { runReadmeExamples } from "../../../scripts/readme-examples.mjs";

it("the README example runs", () => {
  const [out, parts] = runReadmeExamples(join(import.meta.dirname, ".."));
  expect(out).toContain("progress: 6/6 keys");
  expect(out).toMatch(/\{ total: 6, copied: 6, skipped: 0, bytes: \d+ \}/);
  expect(out).toContain("\n6\n");
  expect(out).toContain("3 1\n");
  expect(out).toContain("[ 't2m/zarr.json', 't2m/c/0/0', 't2m/c/0/1' ]");
  expect(out).toContain("2 2\n");
  expect(out).toMatch(/get "t2m\/zarr.json": \d+ B in … ms/);
  expect(out).toContain('getRange "t2m/c/0/0" bytes=-8: 8 B in … ms');
  expect(parts).toContain("[ 2, 1, 1 ]");
  expect(parts).toMatch(/\.zarr-jobs\/[0-9a-f]{16}\/part-2-of-3\.json/);
  expect(parts).toMatch(/written: 0,\s+unchanged: 2,\s+alreadyFinalized: false/);
  expect(parts).toMatch(/\nfalse\n/);
});
