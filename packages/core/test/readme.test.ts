import { join } from "node:path";
import { expect, it } from "vitest";
import { runReadmeExamples } from "../../../scripts/readme-examples.mjs";

it("the README examples run", () => {
  const outputs: string[] = runReadmeExamples(join(import.meta.dirname, ".."));
  expect(outputs[0]).toContain("weather/temperature");
  expect(outputs[0]).toContain("values: [ 1, 2 ]");
  expect(outputs[1]).toContain("https zip\n262143");
  expect(outputs[1]).toContain("function\n131072");
  expect(outputs[2]).toMatch(/^Float32Array\(2\) \[ 0, 0 \] Float32Array\(2\) \[ 0\.3503\d*, 0\.3494\d* \]/);
  expect(outputs[3]).toContain('CODEC_UNKNOWN Codec "blosc" (at $.codecs[1] in "t/zarr.json") is not registered. Install the package');
  expect(outputs[3]).toContain("It is provided by @zarr/codec-blosc: install it");
  expect(outputs[4]).toContain("Infinity");
  expect(outputs[4]).toContain("zarr.incomplete.json g/t2m/zarr.incomplete.json\ntrue false\n[ 'a' ]");
  expect(outputs[6]).toContain("legacy 2 { from: 'legacy' }\nUNSUPPORTED\nINVALID_ARGUMENT v2root/t\n");
  expect(outputs[7]).toBe("UNSUPPORTED\nFloat64Array(1) [ 2 ]\n");
  expect(outputs[8]).toBe("true\nUNSUPPORTED\n");
});
