/** @zarr/all's registries name the @zarr package of a missing codec or store scheme. */

import * as core from "@zarr/core";
import { describe, expect, it } from "vitest";
import {
  createArray,
  createFullRegistry,
  createRegistry,
  MemoryStore,
  openStore,
  providerHints,
  providerOf,
  storeProviderOf,
  type ZarrError,
} from "../src/index.js";

describe("provider hints", () => {
  it("a registry made here names the package of a missing codec, with the JSON path and key", async () => {
    const e = await createArray(new MemoryStore(), "x", {
      shape: [3],
      dataType: "uint8",
      codecs: ["bytes", "zstd"],
      registry: createRegistry(),
    }).catch((x: ZarrError) => x);
    expect((e as ZarrError).code).toBe("CODEC_UNKNOWN");
    expect((e as ZarrError).message).toMatch(
      /^Codec "zstd" \(at \$\.codecs\[1\] in "x\/zarr\.json"\) is not registered\. It is provided by @zarr\/codec-zstd: install it/,
    );
  });

  it("extend keeps the hints; a codec of no @zarr package says so", async () => {
    const registry = createRegistry().extend();
    const shuffle = await registry.codec("numcodecs.shuffle").catch((x: ZarrError) => x);
    expect((shuffle as ZarrError).message).toContain("It is provided by @zarr/codec-filters");
    const unknown = await createFullRegistry().codec("constructor").catch((x: ZarrError) => x);
    expect((unknown as ZarrError).message).toContain("No installed package provides it");
  });

  it("names the store package for a scheme the registry lacks", async () => {
    for (const [url, pkg] of [
      ["https://example.com/a.zarr", "@zarr/store-http"],
      ["s3://bucket/a.zarr", "@zarr/store-s3"],
      ["gs://bucket/a.zarr", "@zarr/store-gcs"],
      ["az://container/a.zarr", "@zarr/store-azure"],
      ["abfss://container@acct.dfs.core.windows.net/a.zarr", "@zarr/store-azure"],
      ["azure+https://acct.blob.core.windows.net/container/a.zarr", "@zarr/store-azure"],
      ["zip+https://example.com/a.zip", "@zarr/store-zip"],
      ["reference+s3://bucket/refs.json", "@zarr/store-references"],
      ["icechunk+s3://bucket/repo", "@zarr/store-icechunk"],
      ["/tmp/a.zarr", "@zarr/store-fs"],
    ]) {
      const e = await openStore(url, { registry: createRegistry() }).catch((x: ZarrError) => x);
      expect((e as ZarrError).code).toBe("UNSUPPORTED");
      expect((e as ZarrError).message).toContain(`It is provided by ${pkg}: install it`);
    }
    expect(storeProviderOf("ftp")).toBeUndefined();
  });

  it("the table covers every codec @zarr/all registers, and core's own registry can use it", async () => {
    for (const entry of createFullRegistry().list()) {
      // bytes, transpose and optional are @zarr/core's own.
      if (entry.type !== "codec" || entry.name === "bytes" || entry.name === "transpose" || entry.name === "optional") continue;
      expect(providerOf(entry.name), entry.name).toMatch(/^@zarr\/codec-/);
    }
    expect(providerOf("toString")).toBeUndefined();
    const e = await core.createRegistry([], providerHints).codec("blosc").catch((x: ZarrError) => x);
    expect((e as ZarrError).message).toContain("It is provided by @zarr/codec-blosc");
  });
});
