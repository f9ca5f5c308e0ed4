// The Icechunk browser test page: opens Icechunk repositories over HTTP with
// @zarr/store-icechunk on @zarr/store-http, reads them on every branch and tag, and reports
// what it saw to the test (window.readIcechunk). Values go back as text so NaN survives.
import { zstd } from "@zarr/codec-zstd";
import { createRegistry, get, MemoryStore, open, openArray, type ZarrArray } from "@zarr/core";
import { ZarrError } from "@zarr/spec";
import { HttpStore } from "@zarr/store-http";
import { type IcechunkStore, IcechunkRepository, type IcechunkVersion } from "@zarr/store-icechunk";

/** What the page read at one branch or tag. */
export interface VersionReport {
  version: IcechunkVersion;
  /** Commit messages from the head back to the first snapshot. */
  history: string[];
  /** group1/small_chunks and group1/big_chunks, each value as `String(v)`. */
  small: string[];
  big: string[];
  groupAttributes: unknown;
  arrayAttributes: unknown;
}

/** What the page reports about one repository. */
export interface RepoReport {
  specVersion: number;
  /** Listed from the repository file (spec version 2; version 1 lists by folder, which HTTP cannot). */
  branches: string[] | undefined;
  tags: string[] | undefined;
  versions: VersionReport[];
  /** Reading the virtual chunk with no container configured. */
  virtualError: { code: string | undefined; message: string };
}

const registry = createRegistry([zstd]);
const VERSIONS: IcechunkVersion[] = [{ branch: "main" }, { branch: "my-branch" }, { tag: "it works!" }, { tag: "it also works!" }];

async function values(store: IcechunkStore, path: string): Promise<string[]> {
  const array = (await openArray(store, path, { registry })) as ZarrArray;
  return Array.from((await get(array, null)).data as ArrayLike<number>, String);
}

async function readRepo(url: string): Promise<RepoReport> {
  const repo = await IcechunkRepository.open(new HttpStore(url));
  const v2 = repo.specVersion === 2;
  const versions: VersionReport[] = [];
  for (const version of VERSIONS) {
    const plain = await repo.store(version);
    // The virtual chunk's container holds what the Python test writes there: the bytes of c/0/1.
    const bucket = new MemoryStore();
    const chunk = await plain.get("group1/big_chunks/c/0/1");
    if (chunk !== undefined) await bucket.set("can_read_old/chunk-1", chunk);
    const store = await repo.store(version, { virtualChunks: { containers: ["s3://testbucket/"], stores: { s3: () => bucket }, verifyChecksums: false } });
    versions.push({
      version,
      history: (await repo.ancestry(version)).map((s) => s.message),
      small: await values(store, "group1/small_chunks"),
      big: await values(store, "group1/big_chunks"),
      groupAttributes: (await open(store, "group1", { registry })).attributes,
      arrayAttributes: (await open(store, "group1/big_chunks", { registry })).attributes,
    });
  }
  let virtualError = { code: undefined as string | undefined, message: "read without error" };
  try {
    await (await repo.store()).get("group1/big_chunks/c/0/0");
  } catch (error) {
    virtualError = { code: error instanceof ZarrError ? error.code : undefined, message: (error as Error).message };
  }
  return {
    specVersion: repo.specVersion,
    branches: v2 ? await repo.listBranches() : undefined,
    tags: v2 ? await repo.listTags() : undefined,
    versions,
    virtualError,
  };
}

(globalThis as unknown as { readIcechunk: typeof readRepo }).readIcechunk = readRepo;
