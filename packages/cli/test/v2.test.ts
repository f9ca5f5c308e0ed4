/** Zarr v2 through the `zarr` command: get every fixture, put --zarr-format 2, convert. */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { requirePythonZarr } from "../../../scripts/test-env.mjs";
import { main } from "../src/main.js";
import { FIXTURES, parseGetJson, python, zarr, zarrOk } from "./helpers.js";

const tmp = mkdtempSync(path.join(os.tmpdir(), "zarr-cli-v2-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const expectedDir = path.join(FIXTURES, "expected", "v2");
const names = readdirSync(expectedDir).filter((f) => f.endsWith(".json")).map((f) => f.slice(0, -5));
const expected = (name: string) => JSON.parse(readFileSync(path.join(expectedDir, `${name}.json`), "utf8"));

/**
 * `zarr get STORE PATH --format json`, run in this process (`main` is what bin/zarr.js
 * runs; starting ~300 node processes would dominate the suite's time).
 */
async function getJson(store: string, arrayPath: string): Promise<{ shape: number[]; values: unknown[] }> {
  const chunks: string[] = [];
  const errors: string[] = [];
  const io = {
    write: async (c: string | Uint8Array) => {
      chunks.push(typeof c === "string" ? c : new TextDecoder().decode(c));
    },
    error: (line: string) => errors.push(line),
  };
  const status = await main(["get", store, arrayPath, "--format", "json"], io);
  if (status !== 0) throw new Error(`zarr get ${store} ${arrayPath} exited ${status}: ${errors.join(" ")}`);
  const { shape, values } = parseGetJson(chunks.join(""));
  return { shape, values };
}

describe("zarr get on the zarr-python v2 fixtures", () => {
  for (const store of ["data.zarr", "data.zipped_from_within.zarr.zip", "data.zipped_from_parent.zarr.zip"]) {
    it(`reads every array of ${store}`, async () => {
      for (const n of names) expect(await getJson(path.join(FIXTURES, "v2", store), n.replace(/__/g, "/")), n).toEqual(expected(n));
    });
  }

  it("the installed command prints the same (one array, through bin/zarr.js)", async () => {
    const r = await zarrOk(["get", path.join(FIXTURES, "v2", "data.zipped_from_parent.zarr.zip"), "3d.chunked.mixed.i2.F", "--format", "json"]);
    const { shape, values } = parseGetJson(r.stdout.toString("utf8"));
    expect({ shape, values }).toEqual(expected("3d.chunked.mixed.i2.F"));
  });
});

describe("zarr put --zarr-format 2", () => {
  it("writes what zarr-python 2.13 reads back, with the compressor, filters and order asked for", async () => {
    requirePythonZarr();
    const cases = [
      { dtype: "<i2", compressor: '{"id":"zlib","level":1}', filters: '[{"id":"delta","dtype":"<i2"}]', order: "F" },
      { dtype: ">f8", compressor: '{"id":"blosc","cname":"zstd","clevel":3,"shuffle":2,"blocksize":0}', filters: "null", order: "C" },
      { dtype: "|S3", compressor: "null", filters: "null", order: "C" },
      { dtype: ">U2", compressor: '{"id":"gzip","level":5}', filters: "null", order: "F" },
      { dtype: "<M8[s]", compressor: '{"id":"lz4","acceleration":1}', filters: "null", order: "C" },
      { dtype: "|b1", compressor: '{"id":"bz2","level":1}', filters: '[{"id":"packbits"}]', order: "C" },
      { dtype: "<c8", compressor: '{"id":"lzma"}', filters: "null", order: "F" },
      { dtype: "<f4", compressor: '{"id":"zstd","level":1}', filters: '[{"id":"shuffle","elementsize":4},{"id":"adler32"}]', order: "C" },
    ];
    const made = python(
      `
import json, sys, numpy as np
out = []
for i, dt in enumerate(json.loads(sys.argv[1])):
    dt = np.dtype(dt)
    n = 20
    if dt.kind == "S": a = np.array([b"a", b"bb", b"ccc", b""] * 5, dtype=dt)
    elif dt.kind == "U": a = np.array(["x", "yz", "", "日本"] * 5, dtype=dt)
    elif dt.kind == "b": a = (np.arange(n) % 3) == 0
    elif dt.kind == "M": a = (np.arange(n) * 86400).astype("<M8[s]")
    elif dt.kind == "c": a = (np.arange(n) + 1j * np.arange(n)[::-1]).astype(dt)
    else: a = (np.arange(n) * 7 - 30).astype(dt)
    a = a.astype(dt).reshape(4, 5)
    np.save(sys.argv[2] + f"/in{i}.npy", a)
`,
      [JSON.stringify(cases.map((c) => c.dtype)), tmp],
    );
    expect(made).toBe("");
    const store = path.join(tmp, "put.zarr");
    for (const [i, c] of cases.entries()) {
      await zarrOk([
        "put", store, `a${i}`, "--from", path.join(tmp, `in${i}.npy`), "--zarr-format", "2", "--chunks", "3,2",
        "--compressor", c.compressor, "--filters", c.filters, "--order", c.order, "--attrs", '{"i": 1}',
        ...(i % 2 === 0 ? ["--dimension-separator", "/"] : []),
      ]);
    }
    const report = python(
      `
import json, sys, numpy as np, zarr
cases = json.loads(sys.argv[1])
bad = []
for i, c in enumerate(cases):
    z = zarr.open_array(sys.argv[2] + f"/put.zarr/a{i}", mode="r")
    a = np.load(sys.argv[2] + f"/in{i}.npy")
    if z.dtype != np.dtype(c["dtype"]) or z.order != c["order"] or z.chunks != (3, 2) or dict(z.attrs) != {"i": 1}:
        bad.append(f"a{i}: {z.dtype} {z.order} {z.chunks} {dict(z.attrs)}")
    if not np.array_equal(z[...], a):
        bad.append(f"a{i}: values differ")
    if json.loads(c["compressor"]) is None and z.compressor is not None: bad.append(f"a{i}: compressor")
print(json.dumps(bad))
`,
      [JSON.stringify(cases), tmp],
    );
    expect(JSON.parse(report)).toEqual([]);
    // and it reads back here
    const back = await getJson(store, "a0");
    expect(back.shape).toEqual([4, 5]);
    expect(back.values.slice(0, 3)).toEqual(["-30", "-23", "-16"]);
  });

  it("keeps a big-endian .npy dtype with default options, and the file's byte order for --data-type", async () => {
    const npy = path.join(tmp, "big-endian.npy");
    python(`import numpy as np, sys; np.save(sys.argv[1], (np.arange(6) / 4).astype(">f8"))`, [npy]);
    const store = path.join(tmp, "big-endian.zarr");
    await zarrOk(["put", store, "kept", "--from", npy, "--zarr-format", "2"]);
    await zarrOk(["put", store, "narrowed", "--from", npy, "--zarr-format", "2", "--data-type", "float32"]);
    const dtypeOf = (name: string) => JSON.parse(readFileSync(path.join(store, name, ".zarray"), "utf8")).dtype;
    expect(dtypeOf("kept")).toBe(">f8");
    expect(dtypeOf("narrowed")).toBe(">f4");
    const read = python(
      `import sys, zarr; print(";".join(f"{zarr.open_array(sys.argv[1] + '/' + n, mode='r').dtype.str}:{zarr.open_array(sys.argv[1] + '/' + n, mode='r')[:].tolist()}" for n in ("kept", "narrowed")))`,
      [store],
    );
    expect(read.trim()).toBe(">f8:[0.0, 0.25, 0.5, 0.75, 1.0, 1.25];>f4:[0.0, 0.25, 0.5, 0.75, 1.0, 1.25]");
  });

  it("refuses v2 options without --zarr-format 2, and --codecs with it", async () => {
    const npy = path.join(tmp, "small.npy");
    python(`import numpy as np, sys; np.save(sys.argv[1], np.arange(4, dtype="<i4"))`, [npy]);
    const store = path.join(tmp, "bad.zarr");
    expect((await zarr(["put", store, "a", "--from", npy, "--compressor", "null"])).code).toBe(2);
    expect((await zarr(["put", store, "a", "--from", npy, "--zarr-format", "2", "--codecs", '["bytes"]'])).code).toBe(2);
    expect((await zarr(["put", store, "a", "--from", npy, "--zarr-format", "4"])).code).toBe(2);
    const r = await zarr(["put", store, "a", "--from", npy, "--zarr-format", "2", "--filters", '{"id":"delta"}']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("INVALID_ARGUMENT");
    expect(existsSync(path.join(store, "a", ".zarray"))).toBe(false);
  });
});

describe("zarr convert", () => {
  it("converts into another store and in place; zarr get reads the same values", async () => {
    const target = path.join(tmp, "v3.zarr");
    const r = await zarrOk(["convert", path.join(FIXTURES, "v2", "data.zarr"), target]);
    expect(r.stdout.toString()).toMatch(/Converted 32 arrays and 2 groups to Zarr v3/);
    expect(existsSync(path.join(target, "zarr.json"))).toBe(true);
    const copy = path.join(tmp, "inplace.zarr");
    cpSync(path.join(FIXTURES, "v2", "data.zarr"), copy, { recursive: true });
    await zarrOk(["convert", copy, "--in-place"]);
    expect(existsSync(path.join(copy, ".zgroup"))).toBe(false);
    for (const store of [target, copy]) {
      for (const n of names) expect(await getJson(store, n.replace(/__/g, "/")), `${store} ${n}`).toEqual(expected(n));
    }
    const again = await zarr(["convert", copy, "--in-place"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already Zarr v3");
    expect((await zarr(["convert", copy])).code).toBe(2);
  });
});
