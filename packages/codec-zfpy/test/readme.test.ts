import { join } from "node:path";
import { expect, it } from "vitest";
import { runReadmeExamples } from "../../../scripts/readme-examples.mjs";

it("the README example runs and prints what it says", () => {
  const [out] = runReadmeExamples(join(import.meta.dirname, ".."));
  const lines = out.trim().split("\n");
  expect(lines[0]).toBe("[ 10, 13 ] Float32Array numcodecs.zfpy");
  expect(lines[1]).toBe("true");
  expect(lines[2]).toBe("float64 [ 6, 4, 5 ] fixed-precision 20");
  expect(lines[3]).toBe("[ 5, 4, 6 ] Float64Array 120");
  expect(lines[4]).toBe("{ name: 'numcodecs.zfpy', configuration: { mode: 3, precision: 20 } } numcodecs.zfpy");
  expect(lines[5]).toBe("[ 5, 4, 6 ]");
  expect(lines[6]).toBe("CODEC_FAILED a/c/0/0/1");
  expect(lines[7]).toBe("undefined precision 20");
  expect(lines[8]).toBe("true true");
  expect(lines[9]).toBe("UNSUPPORTED");
  expect(lines[10]).toBe("numcodecs.zfpy [ 'zfpy' ] true");
  expect(lines).toHaveLength(11);
});
