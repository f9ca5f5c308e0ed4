import { join } from "node:path";
import { expect, it } from "vitest";
import { runReadmeExamples } from "../../../scripts/readme-examples.mjs";

it("the README examples run", () => {
  const outputs: string[] = runReadmeExamples(join(import.meta.dirname, ".."));
  expect(outputs[0]).toContain("weather/temperature");
  expect(outputs[0]).toContain("values: [ 1, 2 ]");
  expect(outputs[1]).toContain("https zip\n262143");
  expect(outputs[1]).toContain("function\n131072");
  expect(outputs[2]).toContain("@zarr/codec-blosc");
  expect(outputs[3]).toContain("Infinity");
});
