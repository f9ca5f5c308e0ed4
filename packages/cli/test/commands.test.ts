/**
 * What `zarr info`, `zarr tree`, `zarr get` and `zarr put` print and write, run as the
 * built command against stores made with `zarr put` and the zarr-python fixtures.
 */
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeNpy } from "../src/npy.js";
import { cliRegistry } from "../src/registry.js";
import { FIXTURES, python, removeTempDirs, tempDir, zarr, zarrOk } from "./helpers.js";

let inputs: string;
let store: string;

const json = async (args: string[]) => JSON.parse((await zarrOk(args)).stdout.toString("utf8"));
const meta = (p: string) => JSON.parse(readFileSync(path.join(store, p, "zarr.json"), "utf8"));

/** Sum of the sizes of every file below `dir`, and their number. */
function diskUsage(dir: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      const u = diskUsage(p);
      bytes += u.bytes;
      files += u.files;
    } else {
      bytes += statSync(p).size;
      files++;
    }
  }
  return { bytes, files };
}

afterAll(removeTempDirs);

beforeAll(async () => {
  inputs = tempDir("zarr-cli-inputs-");
  store = path.join(tempDir(), "store.zarr");
  python(
    `
import sys, numpy as np
d = sys.argv[1]
a = np.zeros((6, 10), dtype="<f4")
a[0, 0] = 1.5
a[5, 9] = -2.0
np.save(d + "/sparse.npy", a)
np.save(d + "/grid.npy", (np.arange(5 * 7, dtype="<i4") * 7).reshape(5, 7))
np.save(d + "/c8.npy", np.array([1 + 2j, 3 - 4j], dtype="<c8"))
np.save(d + "/u.npy", np.array(["ab", ""], dtype="<U2"))
np.save(d + "/i8.npy", np.array([-3, 2**31 - 1], dtype="<i8"))
np.save(d + "/f8.npy", np.array([0.5, -1.0], dtype="<f8"))
`,
    [inputs],
  );
  const from = (name: string) => path.join(inputs, `${name}.npy`);
  await zarrOk([
    "put", store, "climate/sparse", "--from", from("sparse"), "--chunks", "2,4",
    "--fill-value", "0", "--dimension-names", "y,x", "--attrs", '{"units": "K", "big": 18446744073709551615}',
  ]);
  await zarrOk(["put", store, "grid", "--from", from("grid"), "--chunks", "[[1, 4], [[2, 3], 1]]"]);
  await zarrOk(["put", store, "climate/nan", "--from", from("f8"), "--fill-value", "NaN"]);
  await zarrOk(["put", store, "climate/payload", "--from", from("sparse"), "--fill-value", "0x7fc00001", "--chunks", "3,5"]);
  await zarrOk(["put", store, "c8", "--from", from("c8"), "--fill-value", "[1, -2]"]);
  await zarrOk(["put", store, "u", "--from", from("u"), "--fill-value", '"zz"']);
  await zarrOk(["put", store, "narrow", "--from", from("i8"), "--data-type", "int32"]);
}, 120_000);

describe("zarr put", () => {
  it("writes the metadata it was asked for", () => {
    const sparse = meta("climate/sparse");
    expect(sparse.shape).toEqual([6, 10]);
    expect(sparse.data_type).toBe("float32");
    expect(sparse.chunk_grid).toEqual({ name: "regular", configuration: { chunk_shape: [2, 4] } });
    expect(sparse.dimension_names).toEqual(["y", "x"]);
    expect(sparse.fill_value).toBe(0);
    // The default chain: bytes, then zstd (registered in the CLI).
    expect(sparse.codecs).toEqual([
      { name: "bytes", configuration: { endian: "little" } },
      { name: "zstd", configuration: { level: 0, checksum: false } },
    ]);
    // the 64-bit attribute is written exactly
    expect(readFileSync(path.join(store, "climate/sparse/zarr.json"), "utf8")).toContain("18446744073709551615");
    expect(meta("climate").node_type).toBe("group");
    expect(meta("").node_type).toBe("group");
    expect(meta("climate/nan").fill_value).toBe("NaN");
    expect(meta("climate/payload").fill_value).toBe("0x7fc00001");
    expect(meta("c8").fill_value).toEqual([1, -2]);
    expect(meta("u").fill_value).toBe("zz");
    expect(meta("narrow").data_type).toBe("int32");
    expect(meta("grid").chunk_grid).toEqual({
      name: "rectilinear",
      configuration: { kind: "inline", chunk_shapes: [[1, 4], [[2, 3], 1]] },
    });
  });

  it("stores only chunks that are not all fill value", () => {
    const chunks = readdirSync(path.join(store, "climate/sparse/c"), { recursive: true })
      .map(String)
      .filter((p) => statSync(path.join(store, "climate/sparse/c", p)).isFile())
      .sort();
    expect(chunks).toEqual(["0/0", "2/2"]);
  });

  it("converts with --data-type, and replaces with --overwrite", async () => {
    expect((await json(["get", store, "narrow"])).values).toEqual(["-3", "2147483647"]);
    const again = await zarr(["put", store, "narrow", "--from", path.join(inputs, "f8.npy")]);
    expect(again.code).toBe(1);
    await zarrOk(["put", store, "narrow", "--from", path.join(inputs, "f8.npy"), "--overwrite"]);
    expect(await json(["get", store, "narrow"])).toEqual({ shape: [2], data_type: "float64", values: [0.5, -1] });
  });
});

describe("zarr get", () => {
  it("applies --select like NumPy", async () => {
    const all = Array.from({ length: 35 }, (_, i) => String(i * 7));
    const at = (r: number, c: number) => all[r * 7 + c];
    expect(await json(["get", store, "grid", "--select", "1:4, ::3"])).toEqual({
      shape: [3, 3],
      data_type: "int32",
      values: [1, 2, 3].flatMap((r) => [0, 3, 6].map((c) => at(r, c))),
    });
    expect((await json(["get", store, "grid", "--select", "-1"])).values).toEqual([0, 1, 2, 3, 4, 5, 6].map((c) => at(4, c)));
    expect((await json(["get", store, "grid", "--select", "[4, 0], 6"])).values).toEqual([at(4, 6), at(0, 6)]);
    expect((await json(["get", store, "grid", "--select", "..., ::-2"])).shape).toEqual([5, 4]);
    expect(await json(["get", store, "grid", "--select", "2, 3"])).toEqual({ shape: [], data_type: "int32", values: [at(2, 3)] });
  });

  it("reads missing chunks as the fill value", async () => {
    expect((await json(["get", store, "climate/payload"])).values.filter((v: unknown) => v === "NaN")).toHaveLength(0);
    rmSync(path.join(store, "climate/payload/c/1/1")); // rows 3-5, columns 5-9
    const got = await json(["get", store, "climate/payload"]);
    expect(got.values.filter((v: unknown) => v === "NaN")).toHaveLength(15);
    expect(got.values[5 * 10 + 9]).toBe("NaN");
    expect(got.values[0]).toBe(1.5);
    expect((await json(["get", store, "c8", "--select", "0"])).values).toEqual([[1, 2]]);
  });

  it("writes .npy to standard output or to -o FILE", async () => {
    const stdout = (await zarrOk(["get", store, "grid", "--format", "npy", "--select", ":2, :2"])).stdout;
    const npy = await decodeNpy(stdout, "stdout", cliRegistry());
    expect(npy.shape).toEqual([2, 2]);
    expect([...(npy.data as Int32Array)]).toEqual([0, 7, 49, 56]);
    const file = path.join(tempDir(), "out.json");
    const r = await zarrOk(["get", store, "u", "-o", file]);
    expect(r.stdout.length).toBe(0);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({
      shape: [2],
      data_type: { name: "fixed_length_utf32", configuration: { length_bytes: 8 } },
      values: ["ab", ""],
    });
  });

  it("decodes in worker threads with --workers, to the same values", async () => {
    // 128×128 float64 chunks (128 KiB) of gzip: large enough for the workers to read and decode.
    const big = path.join(tempDir(), "big.zarr");
    python(
      `
import sys, numpy as np
np.save(sys.argv[1], (np.sin(np.arange(256 * 384) / 37.0) * 1000).reshape(256, 384))
`,
      [path.join(inputs, "big.npy")],
    );
    const codecs = JSON.stringify([{ name: "bytes", configuration: { endian: "little" } }, { name: "gzip", configuration: { level: 1 } }]);
    await zarrOk(["put", big, "x", "--from", path.join(inputs, "big.npy"), "--chunks", "128,128", "--codecs", codecs]);
    rmSync(path.join(big, "x/c/1/2")); // a missing chunk: the fill value (0)
    const plain = await zarrOk(["get", big, "x", "--format", "npy"]);
    const threaded = await zarrOk(["get", big, "x", "--format", "npy", "--workers", "2"]);
    expect(Buffer.compare(threaded.stdout, plain.stdout)).toBe(0);
    const values = (await decodeNpy(threaded.stdout, "stdout", cliRegistry())).data as Float64Array;
    expect(values[1]).toBeCloseTo(Math.sin(1 / 37) * 1000, 9);
    expect(values[200 * 384 + 300]).toBe(0);
    expect((await json(["get", big, "x", "-j", "1", "--select", "0, :3"])).values.length).toBe(3);
    const bad = await zarr(["get", big, "x", "--workers", "-1"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.toString()).toContain("--workers must be an integer from 0 to 256");
  });

  it("reads an array at the root of a store", async () => {
    const root = path.join(tempDir(), "root.zarr");
    await zarrOk(["put", root, "/", "--from", path.join(inputs, "c8.npy")]);
    expect((await json(["get", root])).values).toEqual([[1, 2], [3, -4]]);
    expect((await json(["info", root, "--json"])).node_type).toBe("array");
  });
});

describe("zarr info", () => {
  it("describes an array as JSON", async () => {
    const info = await json(["info", store, "climate/sparse", "--json"]);
    const usage = diskUsage(path.join(store, "climate/sparse"));
    expect(info).toEqual({
      path: "/climate/sparse",
      node_type: "array",
      zarr_format: 3,
      shape: [6, 10],
      data_type: { name: "float32", configuration: {} },
      chunk_grid: { name: "regular", configuration: { chunk_shape: [2, 4] } },
      chunk_shape: [2, 4],
      grid_shape: [3, 3],
      chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
      fill_value: 0,
      codecs: [
        { name: "bytes", configuration: { endian: "little" } },
        { name: "zstd", configuration: { level: 0, checksum: false } },
      ],
      dimension_names: ["y", "x"],
      attributes: { units: "K", big: 18446744073709552000 },
      stored_bytes: usage.bytes,
      stored_keys: usage.files,
      chunks_stored: 2,
      chunks_total: 9,
      readable: true,
    });
    expect(usage.files).toBe(3);
  });

  it("describes an array as text, one codec per line", async () => {
    const text = (await zarrOk(["info", store, "grid"])).stdout.toString();
    expect(text).toContain("shape:              [5, 7]\n");
    expect(text).toContain("data type:          int32\n");
    expect(text).toContain('chunk grid:         rectilinear, {"kind":"inline","chunk_shapes":[[1,4],[[2,3],1]]} ([2, 4] chunks)\n');
    expect(text).toContain(
      'codecs:\n  {"name":"bytes","configuration":{"endian":"little"}}\n  {"name":"zstd","configuration":{"level":0,"checksum":false}}\ndimension names:    (none)\n',
    );
    expect(text).toContain("chunks:             8 of 8 stored\n");
  });

  it("describes groups: children, consolidated or not, size", async () => {
    const info = await json(["info", store, "--json"]);
    expect(info.node_type).toBe("group");
    expect(info.implicit).toBe(false);
    expect(info.consolidated).toBe(false);
    expect(info.children).toEqual([
      { name: "c8", node_type: "array" },
      { name: "climate", node_type: "group" },
      { name: "grid", node_type: "array" },
      { name: "narrow", node_type: "array" },
      { name: "u", node_type: "array" },
    ]);
    expect(info.stored_bytes).toBe(diskUsage(store).bytes);
    const fixture = await json(["info", path.join(FIXTURES, "v3", "data.zarr"), "consolidated", "--json"]);
    expect(fixture.consolidated).toBe(true);
    expect(fixture.children.map((c: { name: string }) => c.name)).toEqual(["1d.chunked.i2", "2d.contiguous.i2", "nested"]);
  });

  it("describes an implicit group and an array whose codec is not registered", async () => {
    const copy = path.join(tempDir(), "implicit.zarr");
    await zarrOk(["put", copy, "a/b/c", "--from", path.join(inputs, "f8.npy")]);
    rmSync(path.join(copy, "a", "zarr.json"));
    const info = await json(["info", copy, "a", "--json"]);
    expect(info).toMatchObject({ node_type: "group", implicit: true, children: [{ name: "b", node_type: "group" }] });
    const text = (await zarrOk(["info", copy, "a"])).stdout.toString();
    expect(text).toContain("implicit group");
    const blosc = await json(["info", path.join(FIXTURES, "v3", "data.zarr"), "1d.contiguous.blosc.i2", "--json"]);
    if (!cliRegistry().has("codec", "blosc")) {
      expect(blosc.readable).toBe(false);
      expect(blosc.problem).toMatch(/CODEC_UNKNOWN.*blosc/);
    }
    expect(blosc.chunks_stored).toBe(blosc.chunks_total);
  });
});

describe("zarr tree", () => {
  it("prints the hierarchy with shapes and data types", async () => {
    const text = (await zarrOk(["tree", store])).stdout.toString();
    expect(text).toBe(
      [
        "/",
        "├── c8 [2] complex64",
        "├── climate",
        "│   ├── nan [2] float64",
        "│   ├── payload [6, 10] float32",
        "│   └── sparse [6, 10] float32",
        "├── grid [5, 7] int32",
        "├── narrow [2] float64",
        '└── u [2] fixed_length_utf32 {"length_bytes":8}',
        "",
      ].join("\n"),
    );
    expect((await zarrOk(["tree", store, "climate"])).stdout.toString()).toBe(
      ["/climate", "├── nan [2] float64", "├── payload [6, 10] float32", "└── sparse [6, 10] float32", ""].join("\n"),
    );
  });

  it("prints the zarr-python fixture hierarchy, consolidated groups included", async () => {
    const lines = (await zarrOk(["tree", path.join(FIXTURES, "v3", "data.zarr")])).stdout.toString().trim().split("\n");
    expect(lines[0]).toBe("/");
    expect(lines).toContain("├── 3d.chunked.mixed.i2.F [3, 3, 3] int16");
    expect(lines).toContain("│   └── nested");
    expect(lines).toContain("│       └── 1d.i2 [4] int16");
    expect(lines[lines.length - 1]).toBe("└── my group with spaces");
    expect(lines).toHaveLength(1 + 44 + 3 + 1);
  });
});
