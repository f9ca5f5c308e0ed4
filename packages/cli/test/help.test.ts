/** `zarr --help` says what STORE may be, with one example of each kind. */
import { describe, expect, it } from "vitest";
import { runInProcess as run } from "./helpers.js";

describe("zarr --help", () => {
  it("names every kind of STORE with an example", async () => {
    const { out, code } = await run("--help");
    expect(code).toBe(0);
    expect(out).not.toMatch(/STORE is a local directory\./);
    for (const example of ["data.zarr ", "file:///", "https://example.com/data.zarr", "s3://bucket/", "gs://bucket/", "az://container/", "data.zarr.zip", "zip+https://"]) expect(out).toContain(example);
  });
});
