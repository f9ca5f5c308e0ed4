/**
 * A Zarr v2 hierarchy holding arrays that have no Zarr v3 model (a pickle object array, a
 * mixed-endian structured array), written by zarr-python 2.13: the hierarchy stays
 * readable, those arrays are listed with their metadata, and only resolving them (to read
 * or write their data) fails, with the reason; `convert` skips them or, with `strict`, fails.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { get, listChildren, MemoryStore, open, openArray, openEntry, openGroup, walkEntries } from "@zarr/core";
import { ZarrError } from "@zarr/spec";
import { FileSystemStore } from "@zarr/store-fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requirePythonZarr } from "../../../scripts/test-env.mjs";
import { convert, unreadableV2Array } from "../src/index.js";
import { fullRegistry, pythonScript } from "./helpers.js";

const tmp = mkdtempSync(join(tmpdir(), "zarr-v2-unreadable-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const dirs: Record<string, string> = {};

beforeAll(() => {
  requirePythonZarr();
  for (const mode of ["plain", "consolidated"]) {
    dirs[mode] = join(tmp, `${mode}.zarr`);
    pythonScript("write_v2_unreadable.py", [dirs[mode], mode]);
  }
});

/** The coded error `promise` rejects with. */
async function rejection(promise: Promise<unknown>): Promise<ZarrError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ZarrError);
  return error as ZarrError;
}

/** The error of opening a node for its data: the array opens with it as its `problem`, and `get` fails with it. */
async function openedProblem(promise: Promise<unknown>): Promise<ZarrError> {
  const node = (await promise) as { kind?: string; problem?: ZarrError };
  expect(node.kind).toBe("array");
  expect(node.problem).toBeInstanceOf(ZarrError);
  await expect(get(node as Parameters<typeof get>[0])).rejects.toBe(node.problem);
  return node.problem as ZarrError;
}

describe.each(["plain", "consolidated"])("a v2 group with unreadable arrays (%s)", (mode) => {
  const registry = fullRegistry();
  const store = () => new FileSystemStore(dirs[mode], { readOnly: true });

  it("opens, lists every child and walks the whole hierarchy", async () => {
    const root = await openGroup(store(), "", { registry });
    expect(root.consolidated !== undefined).toBe(mode === "consolidated");
    const entries = await listChildren(root);
    expect(entries.map((e) => [e.name, e.kind])).toEqual([
      ["mixed", "array"],
      ["ok", "array"],
      ["pickled", "array"],
      ["sub", "group"],
    ]);
    const walked: string[] = [];
    for await (const e of walkEntries(root)) walked.push(e.path);
    expect(walked).toEqual(["mixed", "ok", "pickled", "sub", "sub/inner"]);
  });

  it("describes an unreadable array from its metadata, with the reason", async () => {
    const root = await openGroup(store(), "", { registry });
    const pickled = (await listChildren(root)).find((e) => e.name === "pickled");
    if (pickled?.kind !== "array" || pickled.metadata.node_type !== "array") throw new Error("pickled is not listed as an array");
    expect(pickled.metadata.shape).toEqual([4]);
    expect(pickled.metadata.chunk_grid.configuration).toEqual({ chunk_shape: [2] });
    const reason = unreadableV2Array(pickled.metadata);
    expect(reason?.dtype).toBe("|O");
    expect(reason?.error.code).toBe("UNSUPPORTED");
    expect(reason?.error.message).toMatch(/pickle/);
    const mixed = await openEntry(store(), "mixed", { registry });
    if (mixed.metadata.node_type !== "array") throw new Error("mixed is not an array");
    expect(unreadableV2Array(mixed.metadata)?.dtype).toEqual([
      ["a", "<i4"],
      ["b", ">f8"],
    ]);
    // a readable array carries no such marker
    const ok = await openEntry(store(), "ok", { registry });
    expect(ok.metadata.node_type === "array" && unreadableV2Array(ok.metadata)).toBe(undefined);
  });

  it("opens an unreadable array with its problem and fails only when its data is read, naming it and the reason", async () => {
    const root = await openGroup(store(), "", { registry });
    const viaGroup = await openedProblem(open(root, "pickled"));
    expect(viaGroup.code).toBe("UNSUPPORTED");
    expect(viaGroup.key).toBe("pickled/.zarray");
    expect(viaGroup.message).toMatch(/pickled\/\.zarray.*pickle/s);
    const direct = await openedProblem(openArray(store(), "mixed", { registry }));
    expect(direct.code).toBe("UNSUPPORTED");
    expect(direct.message).toMatch(/mixed\/\.zarray.*little- and big-endian/s);
    // the readable neighbours still read
    expect(Array.from((await get(await openArray(root, "ok"))).data as Int16Array)).toEqual([0, 1, 2, 3]);
    expect(Array.from((await get(await openArray(root, "sub/inner"))).data as Float32Array)).toEqual([0, 1, 2]);
  });

  it("convert skips the unreadable arrays and says why; strict fails naming the first", async () => {
    const root = await openGroup(store(), "", { registry });
    const target = new MemoryStore();
    const result = await convert(root, { target, registry });
    expect(result.arrays.map((a) => a.path).sort()).toEqual(["ok", "sub/inner"]);
    expect(result.skipped.map((s) => s.path)).toEqual(["mixed", "pickled"]);
    expect(result.skipped[0].reason).toMatch(/^\[UNSUPPORTED\] .*little- and big-endian/);
    expect(result.skipped[1].reason).toMatch(/^\[UNSUPPORTED\] .*pickle/);
    const converted = await openGroup(target, "", { registry });
    expect((await listChildren(converted)).map((e) => e.name)).toEqual(["ok", "sub"]);
    expect(Array.from((await get(await openArray(converted, "ok"))).data as Int16Array)).toEqual([0, 1, 2, 3]);

    const strictTarget = new MemoryStore();
    const strict = await rejection(convert(root, { target: strictTarget, registry, strict: true }));
    expect(strict.code).toBe("UNSUPPORTED");
    expect(strict.message).toMatch(/mixed\/\.zarray/);
    const written: string[] = [];
    for await (const key of strictTarget.listPrefix("")) written.push(key);
    expect(written).toEqual([]); // refused before anything was written
  });
});
