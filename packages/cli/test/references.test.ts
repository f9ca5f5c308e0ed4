/** `reference+<url>` locations: kerchunk reference sets through every reading command. */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseGetJson, removeTempDirs, tempDir, zarr, zarrOk } from "./helpers.js";

afterAll(removeTempDirs);

/** A binary file of 6 int16 after a 16-byte header, and a version-1 reference set over it. */
function referenceSet(): string {
  const dir = tempDir("zarr-cli-refs-");
  writeFileSync(path.join(dir, "legacy.bin"), Buffer.concat([Buffer.alloc(16), Buffer.from(new Int16Array([10, 20, 30, -1, -2, -3]).buffer)]));
  writeFileSync(
    path.join(dir, "refs.json"),
    JSON.stringify({
      version: 1,
      templates: { f: "legacy.bin" },
      refs: {
        ".zgroup": '{"zarr_format": 2}',
        ".zattrs": '{"title": "legacy"}',
        "v/.zarray": JSON.stringify({ zarr_format: 2, shape: [6], chunks: [3], dtype: "<i2", compressor: null, filters: null, fill_value: 0, order: "C" }),
        "v/.zattrs": '{"_ARRAY_DIMENSIONS": ["x"]}',
      },
      gen: [{ key: "v/{{i}}", url: "{{f}}", offset: "{{16 + i * 6}}", length: "6", dimensions: { i: { stop: 2 } } }],
    }),
  );
  return dir;
}

describe("reference+file://", () => {
  it("tree, info, get and cp read the reference set", async () => {
    const dir = referenceSet();
    const url = `reference+file://${path.join(dir, "refs.json")}`;
    expect((await zarrOk(["tree", url])).stdout.toString()).toContain("v [6] int16");
    expect((await zarrOk(["info", url])).stdout.toString()).toContain('{"title":"legacy"}');
    expect(parseGetJson((await zarrOk(["get", url, "v"])).stdout.toString()).values.map(Number)).toEqual([10, 20, 30, -1, -2, -3]);
    const copy = path.join(dir, "copy.zarr");
    await zarrOk(["cp", url, copy]);
    expect(parseGetJson((await zarrOk(["get", copy, "v", "--select", "3:"])).stdout.toString()).values.map(Number)).toEqual([-1, -2, -3]);
  });

  it("names the broken reference when a target is missing", async () => {
    const dir = referenceSet();
    const url = `reference+file://${path.join(dir, "refs.json")}`;
    writeFileSync(path.join(dir, "legacy.bin"), Buffer.alloc(20)); // too short for chunk 1 (bytes 22-28)
    const r = await zarr(["get", url, "v"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('Reference "v/0" reaches past the end');
  });
});
