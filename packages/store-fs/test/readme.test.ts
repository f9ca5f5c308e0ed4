import { join } from "node:path";
import { expect, it } from "vitest";
import { runReadmeExamples } from "../../../scripts/readme-examples.mjs";

it("the README example runs", () => {
  const [out] = runReadmeExamples(join(import.meta.dirname, ".."));
  expect(out).toContain("STORE_READ_ONLY\ntrue false");
  expect(out).toContain("prefixes: [ 't2m' ]");
  expect(out).toContain("versioned: STORE_CHANGED");
  expect(out).toContain("KEY_INVALID\n[]\ns\n1\ntrue ABORTED\n");
});
