import { join } from "node:path";
import { expect, it } from "vitest";
import { runReadmeExamples } from "../../../scripts/readme-examples.mjs";

it("the README example runs and shows the documented request counts", () => {
  const [out] = runReadmeExamples(join(import.meta.dirname, ".."));
  expect(out).toContain("image/c/1/1");
  expect(out).toContain("[ 64, 64 ] cold: 2");
  expect(out).toContain("warm: 1");
  expect(out).toContain("row: 2");
  expect(out).toContain("update: 2 0");
  expect(out).toContain("indexCacheEntries: 256");
});
