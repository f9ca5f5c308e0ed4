import { join } from "node:path";
import { expect, it } from "vitest";
import { runReadmeExamples } from "../../../scripts/readme-examples.mjs";

it("the README example runs and prints what it says", () => {
  const [out] = runReadmeExamples(join(import.meta.dirname, ".."));
  const lines = out.trim().split("\n");
  expect(lines[0]).toBe("true 68000");
  expect(lines[1]).toBe("68000");
  expect(lines[2]).toBe("100000");
  expect(lines[3]).toBe("100000");
  expect(lines[4]).toBe("numcodecs.lzma [ 'lzma' ] numcodecs.lzma");
  expect(lines[5]).toBe(
    '{"name":"numcodecs.lzma","configuration":{"format":1,"check":-1,"preset":1,"filters":null}} 100000',
  );
  expect(lines[6]).toMatch(/^(CHECKSUM_MISMATCH|CODEC_FAILED) t2m\/c\/0\/0$/);
  expect(lines[7]).toBe("numcodecs.lzma true");
});
