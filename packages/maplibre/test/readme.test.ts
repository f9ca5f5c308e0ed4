import { join } from "node:path";
import { expect, it } from "vitest";
import { runReadmeExamples } from "../../../scripts/readme-examples.mjs";

it("the README example runs and prints what it says", () => {
  const [tour] = runReadmeExamples(join(import.meta.dirname, ".."));
  expect(tour).toContain("[ 250, 310 ] K lonlat [ '0' ]\n[ 1252344, -0, 2504689, 1252344 ]\n");
  // Column 112 (lon 11.27°) at time 1: 250 + 112 / 400 × 60 + 1; the whole tile lies inside the data.
  expect(tour).toContain("0 267.80 1 65536\n");
  expect(tour).toContain("262144 [ 98, 25, 128, 255 ]\ntrue\n[ 68, 1, 84, 255 ] linear-gradient(to right, rgb(0, 0, 0) 0.00%");
});
