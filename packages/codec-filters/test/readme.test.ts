import { join } from "node:path";
import { expect, it } from "vitest";
import { runReadmeExamples } from "../../../scripts/readme-examples.mjs";

it("the README example runs and prints what it says", () => {
  const [out] = runReadmeExamples(join(import.meta.dirname, ".."));
  const lines = out.trim().split("\n");
  expect(lines).toEqual([
    "280.38 282.88",
    '{"name":"numcodecs.delta","configuration":{"dtype":"<i2","astype":"<i2"}}',
    "CHECKSUM_MISMATCH t2m/c/1/0",
    "ice||snow|ice 4",
    "ice||snow|ice 32",
    "[ 18.25, NaN, 21.5 ]",
    "6fe39aa9 3e501a0 2735ccd3 ba051b28",
    `true ${[
      "numcodecs.delta numcodecs.fixedscaleoffset numcodecs.quantize numcodecs.bitround bitround numcodecs.astype",
      "numcodecs.packbits packbits numcodecs.categorize numcodecs.shuffle scale_offset cast_value cast-value reshape",
      "numcodecs.adler32 numcodecs.crc32 numcodecs.fletcher32 numcodecs.jenkins_lookup3 numcodecs.json2 numcodecs.msgpack2",
    ].join(" ")}`,
  ]);
});
