import { join } from "node:path";
import { expect, it } from "vitest";
import { runReadmeExamples } from "../../../scripts/readme-examples.mjs";

it("the README example runs", () => {
  const [out] = runReadmeExamples(join(import.meta.dirname, ".."));
  expect(out).toContain("true true\ntrue\nCODEC_FAILED\n"); // round trip, the decode into a kept buffer, the bound
  expect(out).toContain("zstd bitshuffle 4 400000");
});
