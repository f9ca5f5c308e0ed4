import { join } from "node:path";
import { expect, it } from "vitest";
import { runReadmeExamples } from "../../../scripts/readme-examples.mjs";

it("the README example runs and prints what it says", () => {
  const [out] = runReadmeExamples(join(import.meta.dirname, ".."));
  const lines = out.trim().split("\n");
  expect(lines[0]).toBe("BZh9 true");
  expect(lines[1]).toBe("true");
  expect(lines[2]).toBe("numcodecs.bz2 [ 'bz2' ] numcodecs.bz2 1");
  expect(lines[3]).toBe("5");
  expect(lines[4]).toBe("{ name: 'numcodecs.bz2', configuration: { level: 1 } } 40000");
  expect(lines[5]).toMatch(/^(CODEC_FAILED|CHECKSUM_MISMATCH) t2m\/c\/0\/0$/);
  expect(lines[6]).toBe("numcodecs.bz2 true");
});
