/**
 * `zarr info` shows a Zarr v2 hierarchy as it is stored: `consolidated: yes` when the root
 * has `.zmetadata` (which the API uses), and a v2 `fill_value: null` as null, not as the
 * zero core models it with.
 */
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { python, removeTempDirs, tempDir, zarrOk } from "./helpers.js";

afterAll(removeTempDirs);

describe("zarr info on Zarr v2 written by zarr-python", () => {
  it("reports .zmetadata as consolidated and a null fill value as null", async () => {
    const dir = path.join(tempDir(), "v2.zarr");
    python(
      `import sys, zarr, numpy as np
root = zarr.open_group(sys.argv[1], mode="w")
a = root.create_dataset("nofill", shape=(4,), chunks=(2,), dtype="i4", fill_value=None)
a[:] = np.arange(4)
root.create_dataset("zero", shape=(4,), chunks=(2,), dtype="i4", fill_value=0)
root.create_group("sub")
zarr.consolidate_metadata(sys.argv[1])`,
      [dir],
    );
    const root = (await zarrOk(["info", dir])).stdout.toString();
    expect(root).toMatch(/^consolidated: +yes$/m);
    const rootJson = JSON.parse((await zarrOk(["info", dir, "--json"])).stdout.toString());
    expect(rootJson.consolidated).toBe(true);

    const nofill = (await zarrOk(["info", dir, "nofill"])).stdout.toString();
    expect(nofill).toMatch(/^fill value: +null$/m);
    expect(JSON.parse((await zarrOk(["info", dir, "nofill", "--json"])).stdout.toString()).fill_value).toBeNull();
    expect((await zarrOk(["info", dir, "zero"])).stdout.toString()).toMatch(/^fill value: +0$/m);
  });

  it("reports a v2 root without .zmetadata as not consolidated", async () => {
    const dir = path.join(tempDir(), "plain.zarr");
    python(`import sys, zarr
root = zarr.open_group(sys.argv[1], mode="w")
root.create_dataset("x", shape=(2,), dtype="i4")`, [dir]);
    expect((await zarrOk(["info", dir])).stdout.toString()).toMatch(/^consolidated: +no$/m);
  });
});
