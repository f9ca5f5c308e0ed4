import { join } from "node:path";
import { expect, it } from "vitest";
import { runReadmeExamples } from "../../../scripts/readme-examples.mjs";

it("the README example runs and prints what it says", () => {
  const [out] = runReadmeExamples(join(import.meta.dirname, ".."));
  expect(out).toBe(
    "[ 't2m/data/c/0', 't2m/data/c/1', 't2m/zarr.json', 'zarr.json' ]\nInt16Array(4) [ 1, 2, 3, 4 ]\n4\n",
  );
});
