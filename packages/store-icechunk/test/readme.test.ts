import { join } from "node:path";
import { expect, it } from "vitest";
import { runReadmeExamples } from "../../../scripts/readme-examples.mjs";

it("the README examples run", () => {
  const [out] = runReadmeExamples(join(import.meta.dirname, ".."));
  expect(out).toContain("2 [ 'main', 'my-branch' ] [ 'it also works!', 'it works!' ]");
  expect(out).toContain("QTP2RTYS5YQW8RPSQ93G 2026-04-08T16:15:57.455Z delete a chunk");
  expect(out).toContain("1CECHNKREP0F1RSTCMT0 2026-04-08T16:15:57.441Z Repository initialized");
  expect(out).toContain("2768FV3XW5ZXYM84XNNG set virtual chunk [ '', 'group1', 'group1/big_chunks', 'group1/small_chunks' ] 1073741824");
  expect(out).toContain("H7T8YA6KR5TH32F3PS10 { this: 'is a nice group', icechunk: 1, size: 42 }");
  expect(out).toContain("Int8Array(5) [ 84, 84, 84, 84, 8 ]");
  expect(out).toContain("{ keys: [ 'zarr.json' ], prefixes: [ 'big_chunks', 'small_chunks' ] }");
  expect(out).toContain("kind: 'inline'");
  expect(out).toContain("location: 's3://testbucket/can_read_old/chunk-1'");
  expect(out).toContain('UNSUPPORTED: Icechunk group1/big_chunks/c/0/0: virtual chunk at "s3://testbucket/can_read_old/chunk-1"');
  expect(out).toContain("Float32Array(4) [ 42, 42, 42, 42 ] s3://testbucket/");
  expect(out).toContain("Float32Array(4) [ 14, 14, 14, 14 ]");
  expect(out).toContain("containers: [ 's3://data/' ]");
  expect(out).toContain("{ snapshot: '1CECHNKREP0F1RSTCMT0' } 12");
  expect(out).toContain("'/group1/big_chunks': [ [ 0, 0 ], [ 0, 1 ], [ 1, 0 ], [ 1, 1 ] ],\n  '/group1/small_chunks': [ [ 0 ], [ 1 ], [ 2 ], [ 3 ], [ 4 ] ]");
  expect(out).toContain("{ nodeId: 'M5FWFRAWRB31Y', chunks: [ [ 0, 0 ] ] } undefined M5FWFRAWRB31Y");
  expect(out).toContain("\nINVALID_ARGUMENT\n");
  expect(out).toContain('NODE_NOT_FOUND: Icechunk tag deleted: ref not found: the repository has no tag "deleted"');
});
