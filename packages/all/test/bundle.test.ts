import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { expect, it } from "vitest";

it("a browser bundle of @zarr/core + @zarr/codec-gzip holds no other codec or Node-only code", () => {
  const out = execFileSync(process.execPath, [join(import.meta.dirname, "../../../scripts/bundle-sizes.mjs"), "--json"], {
    encoding: "utf8",
    timeout: 120_000,
  });
  const report = JSON.parse(out) as { rows: { package: string; bytes: number }[]; app: { bytes: number; leaked: string[] } };
  expect(report.app.leaked).toEqual([]);
  const sizeOf = (p: string) => report.rows.find((r) => r.package === p)?.bytes ?? 0;
  // The app is core plus gzip (and fflate), far smaller than core plus every codec.
  expect(report.app.bytes).toBeLessThan(sizeOf("@zarr/core") + sizeOf("@zarr/codec-gzip") + 4096);
  expect(report.rows).toHaveLength(13);
});
