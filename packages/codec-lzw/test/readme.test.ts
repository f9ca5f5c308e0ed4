import { join } from "node:path";
import { expect, it } from "vitest";
import { runReadmeExamples } from "../../../scripts/readme-examples.mjs";

it("the README example runs and prints what it says", () => {
  const [out] = runReadmeExamples(join(import.meta.dirname, ".."));
  const lines = out.trim().split("\n");
  expect(lines[0]).toBe("80 true");
  expect(lines[1]).toBe("2400");
  expect(lines[2]).toBe("numcodecs.imagecodecs_lzw [ 'imagecodecs_lzw' ] numcodecs.imagecodecs_lzw");
  expect(lines[3]).toBe("{ name: 'numcodecs.imagecodecs_lzw', configuration: {} }");
  expect(lines[4]).toBe("[ 8, 8 ] 3300");
  expect(lines[5]).toBe("CODEC_FAILED dem/0.0");
});
