import { join } from "node:path";
import { expect, it } from "vitest";
import { runReadmeExamples } from "../../../scripts/readme-examples.mjs";

it("the README example runs", () => {
  const [out] = runReadmeExamples(join(import.meta.dirname, ".."));
  expect(out).toContain("[ 'bytes', 'zstd' ]");
  expect(out).toContain("Int32Array(6) [ 0, 1, 2, 100, 101, 102 ]");
  expect(out).toContain("true true");
  expect(out).toContain("core default has zstd: true");
});
