/**
 * Hostile metadata: documents of a few dozen bytes whose data type or chunk shape implies
 * gigabytes. Opening, describing and reading them fails with UNSUPPORTED before anything is
 * allocated — checked in a child process with a 256 MiB heap, where materialising them would
 * die with V8's fatal "heap out of memory" (which no test could catch).
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

const ALL = new URL("../dist/index.js", import.meta.url).href;

/** Runs `body` (ESM, with `store`, `openArray`, `get` and `enc` in scope) with a 256 MiB heap; returns its output. */
function inSmallHeap(body: string): string {
  const script = `import { get, MemoryStore, openArray } from ${JSON.stringify(ALL)};
const store = new MemoryStore();
const enc = (o) => new TextEncoder().encode(typeof o === "string" ? o : JSON.stringify(o));
const outcome = (p) => p.then(() => "ok", (e) => e.code + " " + e.message);
${body}`;
  const r = spawnSync(process.execPath, ["--max-old-space-size=256", "--input-type=module", "-e", script], { encoding: "utf8", timeout: 60_000 });
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  return r.stdout;
}

describe("hostile metadata", () => {
  it("v3: a struct field with an int8 sub-array of shape [1000000000]", () => {
    const out = inSmallHeap(`
      store.map.set("s/zarr.json", enc('{"zarr_format":3,"node_type":"array","shape":[1],"data_type":{"name":"struct","configuration":{"fields":[{"name":"f","data_type":"int8","shape":[1000000000]}]}},"chunk_grid":{"name":"regular","configuration":{"chunk_shape":[1]}},"chunk_key_encoding":{"name":"default"},"fill_value":{},"codecs":[{"name":"bytes"}]}'));
      console.log(await outcome(openArray(store, "s")));`);
    expect(out).toMatch(/^UNSUPPORTED One element of the data type at \$\.data_type in "s\/zarr.json" takes about 8000000\d+ bytes in memory \(its field "f" holds 1000000000 elements/);
  });

  it('v2: the 49-byte-style .zarray with dtype [["f","|i1",[1000000000]]] (fill value null, or base64)', () => {
    const out = inSmallHeap(`
      for (const fill of ["null", '"AA=="']) {
        store.map.set("s/.zarray", enc('{"zarr_format":2,"shape":[1],"chunks":[1],"dtype":[["f","|i1",[1000000000]]],"compressor":null,"fill_value":' + fill + ',"order":"C","filters":null}'));
        console.log(await outcome(openArray(store, "s")));
      }`);
    const lines = out.trim().split("\n");
    // null: the zero element is never built; base64: its length is checked first (1 byte is not a record).
    expect(lines[0]).toMatch(/^UNSUPPORTED One element of the data type at \$\.data_type .*its field "f" holds 1000000000 elements/);
    expect(lines[1]).toMatch(/^METADATA_INVALID .*expected base64 of 1000000000 bytes for a structured fill value/);
  });

  it("a chunk shape of [1000000, 1000000] float64: opens, and reading fails before allocating 8 TB", () => {
    const out = inSmallHeap(`
      store.map.set("b/zarr.json", enc({ zarr_format: 3, node_type: "array", shape: [1e6, 1e6], data_type: "float64",
        chunk_grid: { name: "regular", configuration: { chunk_shape: [1e6, 1e6] } }, chunk_key_encoding: { name: "default" },
        fill_value: 0, codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "zstd", configuration: { level: 1, checksum: false } }] }));
      store.map.set("b/c/0/0", new Uint8Array(64));
      const arr = await openArray(store, "b");
      console.log(await outcome(get(arr, [0, 0])));`);
    expect(out).toMatch(/^UNSUPPORTED Chunk "b\/c\/0\/0" of shape \[1000000, 1000000\] takes 8000000000000 bytes decoded, more than maxChunkBytes \(2147483648\)/);
  });
});
