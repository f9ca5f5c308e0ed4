import { join } from "node:path";
import { expect, it } from "vitest";
import { runReadmeExamples } from "../../../scripts/readme-examples.mjs";

it("the README example runs and prints what it says", () => {
  const [out] = runReadmeExamples(join(import.meta.dirname, ".."));
  const lines = out.trim().split("\n");
  expect(lines[0]).toBe("u32 [ 1, 2, 3, 4, 5 ] { major: 4, minor: 0 }");
  expect(lines[1]).toBe("true true");
  expect(lines[2]).toBe("true 262144");
  expect(lines[3]).toBe("CODEC_FAILED t2m/c/1");
  expect(lines[4]).toBe("none");
  expect(lines[5]).toBe("numcodecs.pcodec [ 'pcodec' ]");
  expect(lines[6]).toBe("numcodecs.pcodec true");
});
