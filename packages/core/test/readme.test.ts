import { join } from "node:path";
import { expect, it } from "vitest";
import { runReadmeExamples } from "../../../scripts/readme-examples.mjs";

it("the README examples run", () => {
  const outputs: string[] = runReadmeExamples(join(import.meta.dirname, ".."));
  expect(outputs[0]).toContain("weather/temperature");
  expect(outputs[0]).toContain("values: [ 1, 2 ]");
  expect(outputs[1]).toContain("https zip\n262143\nABORTED\n");
  expect(outputs[1]).toContain("function\n1000\n131072");
  expect(outputs[1]).toContain("131072\ntrue 131072\n");
  expect(outputs[2]).toMatch(/^Float32Array\(2\) \[ 0, 0 \] Float32Array\(2\) \[ 0\.3503\d*, 0\.3494\d* \]/);
  expect(outputs[3]).toContain('CODEC_UNKNOWN Codec "blosc" (at $.codecs[1] in "t/zarr.json") is not registered. Install the package');
  expect(outputs[3]).toContain("It is provided by @zarr/codec-blosc: install it");
  expect(outputs[4]).toBe("[ 4 ] false CODEC_UNKNOWN\ntrue\n");
  expect(outputs[5]).toBe("[ 254, 253 ]\nUint8Array(2) [ 1, 2 ]\nUNSUPPORTED\n");
  expect(outputs[6]).toContain("Infinity");
  expect(outputs[6]).toContain("zarr.incomplete.json g/t2m/zarr.incomplete.json\ntrue false\n[ 'a' ]");
  expect(outputs[8]).toContain("legacy 2 { from: 'legacy' }\nUNSUPPORTED\nINVALID_ARGUMENT v2root/t\n");
  expect(outputs[9]).toBe("UNSUPPORTED\nFloat64Array(1) [ 2 ]\n100 1000\n");
  expect(outputs[10]).toBe("true\nUNSUPPORTED\n");
  expect(outputs[12]).toBe('[ 0.5, null, 2, null ]\n28\nnull [{"name":"bytes","configuration":{}}]\n');
  expect(outputs[13]).toBe("[ 1, null, 3 ] true\n");
  expect(outputs[11]).toBe("[[3,2,[1,4]]]\nFloat32Array(4) [ 1, 2, 3, 4 ] [ 2 ]\n");
  const pointwise = outputs[outputs.length - 1];
  expect(pointwise).toContain("[ 4 ] Float32Array(4) [ 4, 23, 42, 56 ]\n[ 2, 2 ] Float32Array(4) [ 0, 4, 10, 14 ]\n");
  expect(pointwise).toContain("Float32Array(3) [ 57, 58, 59 ]\nFloat32Array(2) [ -2, 0 ]\n[ 2, 5 ]\n");
  expect(pointwise).toContain('INVALID_SELECTION: Unknown dimension name "depth": the dimensions of "t2m" are named "time", "lat", "lon"');
});
