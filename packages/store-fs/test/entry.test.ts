import { pathToFileURL } from "node:url";
import { createRegistry, openStore } from "@zarr/core";
import { expect, it } from "vitest";
import { FileSystemStore, fileStoreEntry } from "../src/index.js";
import { freshRoot } from "./helpers.js";

it("opens plain paths and file: URLs through openStore", async () => {
  const { root } = freshRoot();
  const registry = createRegistry([fileStoreEntry]);
  const a = await openStore(root, { registry });
  const b = await openStore(pathToFileURL(root).href, { registry, readOnly: true });
  expect(a).toBeInstanceOf(FileSystemStore);
  expect((a as FileSystemStore).root).toBe(root);
  expect((b as FileSystemStore).root).toBe(root);
  expect((b as FileSystemStore).readOnly).toBe(true);
});
