/**
 * `zarr tree`, `info` and `convert` on a Zarr v2 group holding arrays with no Zarr v3 model
 * (a pickle object array and a mixed-endian structured array, written by zarr-python
 * 2.13): listed with `readable: no` and the reason, as v3 arrays with an unknown codec are;
 * `convert` skips them with a warning, or fails with `--strict`.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { UNREADABLE_V2_DATA_TYPE } from "@zarr/v2-compat";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UNREADABLE_V2_DATA_TYPE as CLI_NAME } from "../src/format.js";
import { pythonScript, removeTempDirs, runInProcess, tempDir } from "./helpers.js";

const WRITER = path.join("..", "..", "v2-compat", "test", "python", "write_v2_unreadable.py");
const stores: Record<string, string> = {};
afterAll(removeTempDirs);
beforeAll(() => {
  const dir = tempDir("zarr-cli-v2-unreadable-");
  for (const mode of ["plain", "consolidated"]) {
    stores[mode] = path.join(dir, `${mode}.zarr`);
    pythonScript(WRITER, [stores[mode], mode]);
  }
});

it("spells the unreadable data type as @zarr/v2-compat does", () => {
  expect(CLI_NAME).toBe(UNREADABLE_V2_DATA_TYPE);
});

describe.each(["plain", "consolidated"])("a v2 group with unreadable arrays (%s)", (mode) => {
  it("tree lists every node, the unreadable ones with their v2 dtype", async () => {
    const r = await runInProcess("tree", stores[mode]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toBe(
      [
        "/",
        '├── mixed [3] [["a","<i4"],["b",">f8"]] (NumPy dtype, not readable)',
        "├── ok [4] int16",
        '├── pickled [4] "|O" (NumPy dtype, not readable)',
        "└── sub",
        "    └── inner [3] float32",
        "",
      ].join("\n"),
    );
    expect((await runInProcess("tree", stores[mode], "--json")).code).toBe(0);
  });

  it("info describes the group and each unreadable array, with readable: no and why", async () => {
    const group = JSON.parse((await runInProcess("info", stores[mode], "--json")).out);
    expect(group.children.map((c: { name: string }) => c.name)).toEqual(["mixed", "ok", "pickled", "sub"]);
    expect(group.consolidated).toBe(mode === "consolidated");
    const pickled = JSON.parse((await runInProcess("info", stores[mode], "pickled", "--json")).out);
    expect(pickled).toMatchObject({ zarr_format: 2, shape: [4], readable: false, chunks_stored: 2, chunks_total: 2, fill_value: 0 });
    expect(pickled.problem).toMatch(/^\[UNSUPPORTED\] The array "pickled\/\.zarray" cannot be read: .*"pickle"/);
    const text = (await runInProcess("info", stores[mode], "mixed")).out;
    expect(text).toContain('data type:          [["a","<i4"],["b",">f8"]] (NumPy dtype, not readable)\n');
    expect(text).toMatch(/readable: +no: \[UNSUPPORTED\] .*mixed\/\.zarray.*little- and big-endian/);
    expect(text).toContain("chunks:             2 of 2 stored\n");
  });

  it("get fails on an unreadable array only, with its coded error", async () => {
    const bad = await runInProcess("get", stores[mode], "pickled");
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/^zarr: \[UNSUPPORTED\] The array "pickled\/\.zarray" cannot be read/);
    expect((await runInProcess("get", stores[mode], "ok", "--format", "json")).code).toBe(0);
  });

  it("convert skips them with a warning and says so; --strict fails naming the array", async () => {
    const target = path.join(tempDir("zarr-cli-v2-unreadable-"), "v3.zarr");
    const r = await runInProcess("convert", stores[mode], target);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Converted 2 arrays and 2 groups to Zarr v3 .*; skipped 2 unreadable arrays/);
    const warnings = r.err.split("\n");
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^zarr: warning: skipped \/mixed \(not written\): \[UNSUPPORTED\] .*little- and big-endian/);
    expect(warnings[1]).toMatch(/^zarr: warning: skipped \/pickled \(not written\): \[UNSUPPORTED\] .*pickle/);
    expect(existsSync(path.join(target, "ok", "zarr.json"))).toBe(true);
    expect(existsSync(path.join(target, "pickled"))).toBe(false);

    const strictTarget = path.join(tempDir("zarr-cli-v2-unreadable-"), "strict.zarr");
    const strict = await runInProcess("convert", stores[mode], strictTarget, "--strict");
    expect(strict.code).toBe(1);
    expect(strict.err).toMatch(/^zarr: \[UNSUPPORTED\] The array "mixed\/\.zarray" cannot be read/);
    expect(existsSync(path.join(strictTarget, "zarr.json"))).toBe(false);
  });
});
