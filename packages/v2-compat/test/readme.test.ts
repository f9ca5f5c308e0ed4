import { join } from "node:path";
import { expect, it } from "vitest";
import { runReadmeExamples } from "../../../scripts/readme-examples.mjs";

it("the README example runs and prints what it says", () => {
  const [out, parts] = runReadmeExamples(join(import.meta.dirname, ".."));
  expect(parts).toBe("[ 2, 1, 1 ]\nt2m/0.0 t2m/0.1 t2m/1.0 t2m/1.1 t2m/zarr.json zarr.json\n");
  expect(out).toContain(">f4 NaN");
  expect(out).toContain('{"zarr_format":2}');
  expect(out).toContain("2 true [ 5, 6 ]");
  expect(out).toContain("[ { id: 'vlen-utf8' } ]");
  expect(out).toContain("{ id: '2', pos: [ 47.4, 8.5 ], name: '7a7572696368' }");
  expect(out).toContain("2 climate climate/names climate/stations climate/t2m");
  expect(out).toContain("[ 'transpose', 'bytes', 'numcodecs.zlib' ]");
  expect(out).toContain("3 climate/names:copied climate/stations:copied climate/t2m:copied");
  expect(out).toContain("3 [ 270, 271, 272 ]");
  expect(out).toContain("6/6 chunks");
  expect(out).toContain("{ zarr_format: 2 } 7");
  expect(out).toContain("[ 'numcodecs.delta', 'bytes', 'gzip' ]");
  expect(out).toContain("c1/2");
  expect(out).toContain("p [ 10 ] |O");
  expect(out).toContain("zarr-v2.unreadable");
  expect(out).toContain("UNSUPPORTED p/.zarray true");
  expect(out).toContain("[ 'p' ]");
  expect(out).toContain("[ { path: 't2m', chunks: 4 } ] [ 'meta/root.group.json', 'meta/root/t2m.array.json' ]");
});
