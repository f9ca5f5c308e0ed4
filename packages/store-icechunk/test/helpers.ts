import { join } from "node:path";
import { zstd } from "@zarr/codec-zstd";
import { createRegistry } from "@zarr/core";
import { FileSystemStore } from "@zarr/store-fs";
import { fixturesDir } from "../../../scripts/test-env.mjs";

/** Icechunk's own read-compatibility repositories. */
export const FIXTURES = join(fixturesDir(), "icechunk");

/** A read-only store over fixture repository `name`. */
export function fixture(name: string): FileSystemStore {
  return new FileSystemStore(join(FIXTURES, name), { readOnly: true });
}

/** The codecs the fixtures' arrays use. */
export const registry = createRegistry([zstd]);
