import { describe, expect, it } from "vitest";
import { createRegistry, MemoryStore, openStore, type StoreEntry, storeScheme, type ZarrError } from "../src/index.js";

describe("openStore", () => {
  it("classifies locations by scheme", () => {
    expect(storeScheme("data.zarr")).toBe("file");
    expect(storeScheme("/abs/data.zarr")).toBe("file");
    expect(storeScheme("C:\\data\\x.zarr")).toBe("file");
    expect(storeScheme("file:///tmp/x.zarr")).toBe("file");
    expect(storeScheme("HTTPS://example.com/x.zarr")).toBe("https");
    expect(storeScheme("s3://bucket/prefix?region=eu-west-1")).toBe("s3");
    expect(storeScheme("zip+s3://bucket/a.zip")).toBe("zip+s3");
    expect(storeScheme("/tmp/archive.zip")).toBe("zip");
  });

  it("opens through the entry for the scheme and offers nested opening", async () => {
    const seen: string[] = [];
    const memory: StoreEntry = {
      type: "store",
      name: "memory",
      schemes: ["memory", "zip+memory"],
      open: async (url, options) => {
        seen.push(url);
        if (url.startsWith("zip+")) await options.openInner?.(url.slice(4));
        return new MemoryStore();
      },
    };
    const registry = createRegistry([memory]);
    expect(await openStore("memory://a", { registry })).toBeInstanceOf(MemoryStore);
    await openStore("zip+memory://b/c.zip", { registry });
    expect(seen).toEqual(["memory://a", "zip+memory://b/c.zip", "memory://b/c.zip"]);
  });

  it("names the scheme nobody serves and says to install its package or use @zarr/all", async () => {
    const e = await openStore("https://example.com/x.zarr", { registry: createRegistry() }).catch((x: ZarrError) => x);
    expect((e as ZarrError).code).toBe("UNSUPPORTED");
    expect((e as ZarrError).message).toMatch(/^Store for URL scheme "https" is not registered\. Install the package that provides it .*or use @zarr\/all/);
    const hinted = createRegistry([], { providerOf: (type, name) => (type === "store" ? `store-for-${name}` : undefined) });
    const named = await openStore("s3://bucket/x.zarr", { registry: hinted }).catch((x: ZarrError) => x);
    expect((named as ZarrError).message).toContain("It is provided by store-for-s3: install it");
  });
});
