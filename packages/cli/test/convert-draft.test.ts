/**
 * `zarr convert SRC DST --zarr-format 3-draft`: any hierarchy written in the early Zarr v3
 * draft layout, read back by GDAL 3.6 with the same values; arrays that cannot be read are
 * skipped with a warning (or fail with --strict).
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { haveGdal, requirePeer } from "../../../scripts/test-env.mjs";
import { python, pythonScript, removeTempDirs, runInProcess, tempDir } from "./helpers.js";

afterAll(removeTempDirs);

describe("zarr convert --zarr-format 3-draft", () => {
  it("writes a v3 store that GDAL 3.6 reads with the same values", async () => {
    requirePeer(haveGdal(), "GDAL (gdal-bin)");
    const dir = tempDir("zarr-cli-draft-out-");
    const npy = path.join(dir, "t.npy");
    python("import numpy as np, sys; np.save(sys.argv[1], (np.arange(48*64, dtype='<i4').reshape(48, 64) * 7919) % 100003 - 50000)", [npy]);
    const src = path.join(dir, "src.zarr");
    expect((await runInProcess("put", src, "g/t", "--from", npy, "--chunks", "16,20")).code).toBe(0);
    const dst = path.join(dir, "draft.zarr");
    const r = await runInProcess("convert", src, dst, "--zarr-format", "3-draft");
    expect(r.err).toBe("");
    expect(r.out).toBe("Wrote 1 arrays and 2 groups in the early Zarr v3 draft layout (GDAL 3.6, zarr-python 2.13)\n");
    const info = JSON.parse((await runInProcess("info", dst, "g/t", "--json")).out);
    expect(info).toMatchObject({ format: "zarr-v3-draft", chunks_stored: 12, chunks_total: 12 });
    const out = path.join(dir, "t.bin");
    execFileSync("gdal_translate", ["-q", "-of", "ENVI", `ZARR:"${dst}":/g/t`, out], { stdio: "pipe" });
    const bytes = readFileSync(out);
    const got = Array.from(new Int32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)));
    const expected = JSON.parse((await runInProcess("get", src, "g/t", "--format", "json")).out).values.flat().map(Number);
    expect(got).toEqual(expected);
  });

  it("an array at the root of SRC is written as /data", async () => {
    const dir = tempDir("zarr-cli-draft-out-");
    const npy = path.join(dir, "a.npy");
    python("import numpy as np, sys; np.save(sys.argv[1], np.arange(6, dtype='<f8'))", [npy]);
    const src = path.join(dir, "root.zarr");
    await runInProcess("put", src, "", "--from", npy);
    const dst = path.join(dir, "draft.zarr");
    expect((await runInProcess("convert", src, dst, "--zarr-format", "3-draft")).code).toBe(0);
    expect(JSON.parse((await runInProcess("get", dst, "data", "--format", "json")).out).values).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("skips unreadable v2 arrays with a warning; --strict fails", async () => {
    const dir = tempDir("zarr-cli-draft-out-");
    const src = path.join(dir, "v2.zarr");
    pythonScript(path.join("..", "..", "v2-compat", "test", "python", "write_v2_unreadable.py"), [src]);
    const r = await runInProcess("convert", src, path.join(dir, "d.zarr"), "--zarr-format", "3-draft");
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Wrote 2 arrays and 2 groups .*; skipped 2 unreadable arrays/);
    expect(r.err.split("\n").map((l) => l.slice(0, 38))).toEqual(["zarr: warning: skipped /mixed (not wri", "zarr: warning: skipped /pickled (not w"]);
    const strict = await runInProcess("convert", src, path.join(dir, "s.zarr"), "--zarr-format", "3-draft", "--strict");
    expect(strict.code).toBe(1);
    expect(strict.err).toMatch(/^zarr: \[UNSUPPORTED\] The array "mixed\/\.zarray" cannot be read/);
  });

  it("refuses --in-place and unknown formats as usage errors", async () => {
    const dir = tempDir("zarr-cli-draft-out-");
    writeFileSync(path.join(dir, "x"), "");
    expect((await runInProcess("convert", dir, "--in-place", "--zarr-format", "3-draft")).code).toBe(2);
    const bad = await runInProcess("convert", dir, path.join(dir, "o"), "--zarr-format", "4");
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("--zarr-format must be 3 or 3-draft");
  });
});
