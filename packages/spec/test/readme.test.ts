import { join } from "node:path";
import { expect, it } from "vitest";
import { runReadmeExamples } from "../../../scripts/readme-examples.mjs";

it("the README example runs and prints what it says", () => {
  const [out, bounded] = runReadmeExamples(join(import.meta.dirname, ".."));
  expect(out).toContain("18446744073709551615n");
  expect(out).toContain('{"shuffle":"bitshuffle"}');
  expect(out).toContain('Invalid metadata in "x/zarr.json" at $.shape[1]');
  expect(out).toContain('{"n": [1, 2.50]} {"n":[1,2.5]}\n[ 1, 2.5 ] undefined 8388608\n');
  expect(out).toContain("Int32Array(4) [ 6, 5, 9, 8 ]");
  expect(out).toContain("1,4,7,2,5,8,3,6,9");
  expect(out).toContain("[ 2, 4, 6 ]");
  expect(out).toContain("[ 2, 12 ]");
  expect(out).toContain("true false ABORTED");
  expect(out).toContain('CODEC_FAILED lzw: cannot decode chunk "c/0"\n');
  expect(out).toContain("'1,2 #5 covers false', '1,1 #4 covers false', '1,0 #3 covers false'");
  expect(out).toContain("0,0 1,0 0,1 1,1");
  expect(out).toContain("undefined B 60 1");
  expect(out).toContain("11e60398");
  expect(out).toContain("\n0 2 2 -2\n");
  expect(out).toContain("true STORE_CHANGED\nfalse true\ntrue\n");
  expect(out).toContain("true false 67108864");
  expect(out).toContain(
    'bytes=10-14 empty\n{ start: 0, end: 99, total: 1234 } inconsistent Content-Range "bytes 9-3/100"\n' +
      "Uint8Array(4) [ 2, 3, 4, 5 ] Uint8Array(3) [ 5, 6, 7 ]\n8 false\ntrue the body is larger than the 6 bytes accepted\nUint8Array(3) [ 1, 2, 3 ]\n",
  );
  expect(out).toContain("Uint8Array(4) [ 2, 3, 4, 5 ] Uint8Array(1) [ 5 ] undefined\nUint8Array(2) [ 2, 3 ]\nSTORE_CHANGED\n");
  expect(out).toContain("data climate x.zarr true\n{ region: 'eu-west-1' }\nS3 store option \"region\" must be string, not number");
  expect(bounded).toBe('100\nCODEC_FAILED sized: chunk "a/c/0" would decode to 100 bytes, more than the 64 bytes it may hold (corrupt data, or a decompression bomb)\n');
});
