/**
 * `zarr consolidate STORE [PATH]`: Zarr v2 `.zmetadata` as zarr-python 2.13 writes it (and
 * reads it with `open_consolidated`), Zarr v3 `consolidated_metadata` in `zarr.json`, and
 * `zarr tree` over plain HTTP afterwards, with one request.
 */
import { cpSync, mkdtempSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { vlenUtf8 } from "@zarr/codec-vlen";
import { createArray, createGroup, createRegistry } from "@zarr/core";
import { FileSystemStore } from "@zarr/store-fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { python, zarr, zarrOk } from "./helpers.js";

const dir = mkdtempSync(path.join(os.tmpdir(), "zarr-consolidate-"));

/** A static file server over `root` that records the paths asked for. */
async function serveDirectory(root: string): Promise<{ url: string; seen: string[]; close: () => void }> {
  const seen: string[] = [];
  const server: Server = createServer(async (req, res) => {
    const p = decodeURIComponent((req.url ?? "/").split("?")[0]);
    seen.push(p);
    try {
      const body = await readFile(path.join(root, p));
      res.writeHead(200, { "content-length": body.length });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

describe("zarr consolidate, Zarr v2", () => {
  const ours = path.join(dir, "v2-ours");
  const theirs = path.join(dir, "v2-theirs");

  beforeAll(() => {
    python(
      `import sys, zarr, numpy as np
g = zarr.open_group(sys.argv[1], mode="w")
a = g.create_group("a")
a.create_dataset("x", data=np.arange(6).reshape(2, 3), chunks=(1, 3))
a.attrs["units"] = "m"
g.create_dataset("y", data=np.arange(4.0))
g.create_group("empty")
g.attrs["title"] = "t"`,
      [ours],
    );
    cpSync(ours, theirs, { recursive: true });
    python("import sys, zarr; zarr.consolidate_metadata(sys.argv[1])", [theirs]);
  });

  it("writes the .zmetadata zarr-python's consolidate_metadata writes", async () => {
    const r = await zarrOk(["consolidate", ours]);
    expect(r.stdout.toString()).toBe("Consolidated the metadata of 4 nodes below / into .zmetadata (Zarr v2)\n");
    const read = (root: string) => JSON.parse(readFileSync(path.join(root, ".zmetadata"), "utf8"));
    expect(read(ours)).toEqual(read(theirs));
  });

  it("is read by zarr-python's open_consolidated, which sees every node from it", () => {
    const out = python(
      `import sys, os, zarr
g = zarr.open_consolidated(sys.argv[1])
# The store listing no longer matters: remove a document; the consolidated copy still answers.
os.remove(os.path.join(sys.argv[1], "a", "x", ".zarray"))
g = zarr.open_consolidated(sys.argv[1])
print(sorted(g.group_keys()), sorted(g.array_keys()), g["a/x"].shape, g["a"].attrs["units"], g.attrs["title"])`,
      [ours],
    );
    expect(out.trim()).toBe("['a', 'empty'] ['y'] (2, 3) m t");
  });
});

describe("zarr consolidate, Zarr v3, and zarr tree over HTTP", () => {
  const root = path.join(dir, "v3");
  let served: Awaited<ReturnType<typeof serveDirectory>>;

  beforeAll(async () => {
    const store = new FileSystemStore(root);
    await createGroup(store, "", { attributes: { title: "t" } });
    await createGroup(store, "g");
    await createArray(store, "g/x", { shape: [4, 2], chunkShape: [2, 2], dataType: "int16", dimensionNames: ["time", "lat"] });
    await createArray(store, "s", { shape: [3], chunkShape: [3], dataType: "string", codecs: [{ name: "vlen-utf8" }], registry: createRegistry([vlenUtf8]) });
    served = await serveDirectory(root);
  });
  afterAll(() => served.close());

  it("cannot show the tree of an unconsolidated store over HTTP; after consolidate, it does from the root document alone", async () => {
    const before = await zarr(["tree", served.url]);
    expect(before.code).toBe(1);
    const r = await zarrOk(["consolidate", root]);
    expect(r.stdout.toString()).toBe("Consolidated the metadata of 3 nodes below / into zarr.json (Zarr v3)\n");
    const doc = JSON.parse(readFileSync(path.join(root, "zarr.json"), "utf8"));
    expect(doc.consolidated_metadata).toMatchObject({ kind: "inline", must_understand: false });
    expect(Object.keys(doc.consolidated_metadata.metadata).sort()).toEqual(["g", "g/x", "s"]);
    expect(doc.consolidated_metadata.metadata["g/x"]).toEqual(JSON.parse(readFileSync(path.join(root, "g", "x", "zarr.json"), "utf8")));
    expect(doc.attributes).toEqual({ title: "t" });

    served.seen.length = 0;
    const tree = await zarrOk(["tree", served.url]);
    expect(tree.stdout.toString()).toBe("/\n├── g\n│   └── x [4, 2] int16\n└── s [3] string\n");
    // Only the root document is read: every child comes from its consolidated metadata. (Today
    // findNode in listing.ts reads it twice, once for the entry and once for the group; making
    // that one read is the tree-listing work of issue 26 point 7.)
    expect(new Set(served.seen)).toEqual(new Set(["/zarr.json"]));
    expect(served.seen.length).toBeLessThanOrEqual(2);
  });

  it("consolidates a subgroup alone at PATH, and again after a change", async () => {
    const r = await zarrOk(["consolidate", root, "g"]);
    expect(r.stdout.toString()).toBe("Consolidated the metadata of 1 node below /g into g/zarr.json (Zarr v3)\n");
    const doc = JSON.parse(readFileSync(path.join(root, "g", "zarr.json"), "utf8"));
    expect(Object.keys(doc.consolidated_metadata.metadata)).toEqual(["x"]);
    await createArray(new FileSystemStore(root), "g/y", { shape: [1], chunkShape: [1], dataType: "uint8" });
    await zarrOk(["consolidate", root]);
    const again = JSON.parse(readFileSync(path.join(root, "zarr.json"), "utf8"));
    expect(Object.keys(again.consolidated_metadata.metadata).sort()).toEqual(["g", "g/x", "g/y", "s"]);
  });

  it("fails with a coded error for an array, a missing node or a missing store", async () => {
    const array = await zarr(["consolidate", root, "g/x"]);
    expect(array.code).toBe(1);
    expect(array.stderr).toMatch(/^zarr: \[[A-Z_]+\] .*g\/x/m);
    const missing = await zarr(["consolidate", root, "nope"]);
    expect(missing.stderr).toMatch(/^zarr: \[NODE_NOT_FOUND\]/m);
    const nowhere = await zarr(["consolidate", path.join(dir, "no-such-store")]);
    expect(nowhere.code).toBe(1);
    expect(nowhere.stderr).toMatch(/^zarr: \[NODE_NOT_FOUND\]/m);
    expect((await zarr(["consolidate"])).code).toBe(2);
  });
});
