import { join } from "node:path";
import { expect, it } from "vitest";
import { runReadmeExamples } from "../../../scripts/readme-examples.mjs";

it("the README example runs", () => {
  const [out] = runReadmeExamples(join(import.meta.dirname, ".."));
  expect(out).toContain("true true\ntrue\n"); // round trip, then the decode into a kept buffer
  expect(out).toContain("zstd bitshuffle 4 400000");
});
