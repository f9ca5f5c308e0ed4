/**
 * Compression ratio sanity: compressible data shrinks a lot, and on typical array data
 * the TypeScript encoder stays within 1.5× of libzstd level 3 (sizes are printed).
 */
import { describe, expect, it } from "vitest";
import { zstdCompress } from "../src/index.js";
import { libzstdEncode, sampleArrays } from "./reference.js";

describe("compression ratio", () => {
  it("compressible data becomes much smaller", () => {
    const text = new TextEncoder().encode("Zarr chunks compressed with zstd. ".repeat(3000));
    expect(zstdCompress(text, 3).length).toBeLessThan(text.length / 50);
    const ramp = new Uint8Array(new Int32Array(Array.from({ length: 50_000 }, (_, i) => i % 1000)).buffer);
    expect(zstdCompress(ramp, 3).length).toBeLessThan(ramp.length / 20);
  });

  it("within 1.5× of libzstd level 3 on typical arrays", () => {
    const arrays = sampleArrays(512 * 1024, 21);
    const names = Object.keys(arrays);
    const reference = libzstdEncode(names.map((n) => ({ data: arrays[n], level: 3 })));
    const rows: string[] = [];
    names.forEach((name, i) => {
      const data = arrays[name];
      const ours = zstdCompress(data, 3).length;
      const lib = reference[i].length;
      rows.push(`${name}: input ${data.length}, ours(3) ${ours}, libzstd(3) ${lib}, ratio ${(ours / lib).toFixed(3)}`);
      expect(ours).toBeLessThan(lib * 1.5);
    });
    console.log(rows.join("\n"));
  });
});
