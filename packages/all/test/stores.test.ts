import { expect, it } from "vitest";
import { registry } from "../src/index.js";

it("serves every store scheme, loading the S3 adapter only on demand", async () => {
  for (const scheme of ["file", "http", "https", "zip", "zip+s3", "s3"]) expect(registry.has("store", scheme), scheme).toBe(true);
  const s3 = await registry.store("s3");
  expect(s3.schemes).toContain("s3");
});
