/** The registry entry: zip URLs split into the container store and the archive key. */
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRegistry, MemoryStore, openStore } from "@zarr/core";
import type { StoreEntry } from "@zarr/spec";
import { FileSystemStore, fileStoreEntry } from "@zarr/store-fs";
import { describe, expect, it } from "vitest";
import { splitZipLocation, writeZip, ZipStore, zipStoreEntry } from "../src/index.js";
import { collect, rejectsWith, tempDir, utf8 } from "./helpers.js";

describe("splitZipLocation", () => {
  it.each([
    ["zip+s3://bucket/dir/a.zip", { container: "s3://bucket/dir", archive: "a.zip", prefix: undefined }],
    ["zip+s3://bucket/a.zip", { container: "s3://bucket", archive: "a.zip", prefix: undefined }],
    ["zip+https://host/x/y/a.zip!/data.zarr", { container: "https://host/x/y", archive: "a.zip", prefix: "data.zarr/" }],
    ["zip+https://host/a%20b.zip!/my%20data/", { container: "https://host", archive: "a b.zip", prefix: "my data/" }],
    ["zip+https://host/d/a.zip?sig=1", { container: "https://host/d?sig=1", archive: "a.zip", prefix: undefined }],
    ["zip+file:///tmp/x/a.zip", { container: "file:///tmp/x", archive: "a.zip", prefix: undefined }],
    ["file:///a.zip", { container: "file:///", archive: "a.zip", prefix: undefined }],
    ["/tmp/x/a.zip", { container: "/tmp/x", archive: "a.zip", prefix: undefined }],
    ["/a.zip", { container: "/", archive: "a.zip", prefix: undefined }],
    ["a.zip", { container: ".", archive: "a.zip", prefix: undefined }],
    ["rel/dir/a.zip/", { container: "rel/dir", archive: "a.zip", prefix: undefined }],
    ["zip:///tmp/x/a%20b.zip!/inner", { container: "/tmp/x", archive: "a%20b.zip", prefix: "inner/" }],
    ["C:\\data\\a.zip", { container: "C:\\data", archive: "a.zip", prefix: undefined }],
    ["C:\\a.zip", { container: "C:\\", archive: "a.zip", prefix: undefined }],
  ])("%s", (url, expected) => {
    expect(splitZipLocation(url)).toEqual(expected);
  });

  it("rejects locations without an archive name", () => {
    expect(() => splitZipLocation("zip+s3://bucket")).toThrow(/no archive name/);
    expect(() => splitZipLocation("zip+https://host/")).toThrow(/no archive name/);
    expect(() => splitZipLocation("")).toThrow(/empty/);
    expect(() => splitZipLocation("http://host/a.zip")).toThrow(/expected zip\+<scheme>/);
  });
});

describe("zipStoreEntry through openStore", () => {
  async function archiveDir(): Promise<string> {
    const dir = tempDir();
    const source = new MemoryStore();
    await source.set("data.zarr/zarr.json", utf8('{"zarr_format":3,"node_type":"group"}'));
    await source.set("data.zarr/x/zarr.json", utf8('{"zarr_format":3,"node_type":"group"}'));
    await source.set("other/file", utf8("other"));
    await writeZip(source, new FileSystemStore(dir), "my archive.zip");
    return dir;
  }

  it("plain paths, file: URLs, zip:// and zip+file://, with and without !/prefix", async () => {
    const dir = await archiveDir();
    const registry = createRegistry([fileStoreEntry, zipStoreEntry]);
    const file = path.join(dir, "my archive.zip");
    const fileUrl = pathToFileURL(file).href;
    for (const location of [file, fileUrl, `zip://${file}`, `zip+${fileUrl}`]) {
      const store = await openStore(location, { registry });
      expect(store).toBeInstanceOf(ZipStore);
      // autoPrefix: the only folder with zarr metadata.
      expect(await collect((store as ZipStore).list())).toEqual(["x/zarr.json", "zarr.json"]);
    }
    for (const location of [`zip://${file}!/other`, `zip+${fileUrl}!/other/`]) {
      const store = (await openStore(location, { registry })) as ZipStore;
      expect(await collect(store.list())).toEqual(["file"]);
      expect(new TextDecoder().decode(await store.get("file"))).toBe("other");
    }
  });

  it("zip+s3:// opens the container through openInner with the archive's folder", async () => {
    const dir = await archiveDir();
    const archive = (await new FileSystemStore(dir).get("my archive.zip")) as Uint8Array;
    const opened: string[] = [];
    const fakeS3: StoreEntry = {
      type: "store",
      name: "fake-s3",
      schemes: ["s3"],
      open(url) {
        opened.push(url);
        return new MemoryStore([["archives/my archive.zip", archive]]);
      },
    };
    const registry = createRegistry([fakeS3, zipStoreEntry]);
    const store = (await openStore("zip+s3://bucket/dir/archives/my%20archive.zip!/data.zarr", { registry })) as ZipStore;
    expect(opened).toEqual(["s3://bucket/dir/archives"]);
    expect(store.archive).toBe("my archive.zip");
    // The fake bucket store holds the archive one level deeper than the container URL says,
    // so reading fails: proves the key is what the store is asked for.
    await rejectsWith(store.get("zarr.json"), "STORE_FAILED");
    const right = (await openStore("zip+s3://bucket/archives/my%20archive.zip", { registry })) as ZipStore;
    expect(opened.at(-1)).toBe("s3://bucket/archives");
    expect(right.archive).toBe("my archive.zip");
  });

  it("entry metadata, and open without openInner", async () => {
    expect(zipStoreEntry).toMatchObject({ type: "store", name: "zip", package: "@zarr/store-zip" });
    expect(zipStoreEntry.schemes).toEqual(["zip", "zip+file", "zip+http", "zip+https", "zip+s3"]);
    await rejectsWith(Promise.resolve().then(() => zipStoreEntry.open("/x/a.zip", {})), "INVALID_ARGUMENT");
  });
});
