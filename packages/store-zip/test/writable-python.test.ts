/** Interop of the writable zip store with Python's zipfile, both ways (zarr-python's ZipStore is tested in @zarr/v2-compat). */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { FileSystemStore } from "@zarr/store-fs";
import { describe, expect, it } from "vitest";
import { requirePythonZarr } from "../../../scripts/test-env.mjs";
import { ZipStore } from "../src/index.js";
import { openZipFileForWriting } from "../src/node.js";
import { collect, expectBytes, pattern, python, rng, tempDir, utf8 } from "./helpers.js";

/** Reads the archive at the path on stdin with zipfile: testzip, names, each member's digest and method, the comment. */
const READ = `
import hashlib, json, sys, warnings, zipfile
warnings.simplefilter("error")  # a duplicate-name warning would fail the read
zf = zipfile.ZipFile(sys.stdin.read())
print(json.dumps({"test": zf.testzip(), "names": zf.namelist(), "comment": zf.comment.decode(),
    "files": {i.filename: {"sha": hashlib.sha256(zf.read(i)).hexdigest(), "method": i.compress_type, "dir": i.is_dir()}
              for i in zf.infolist()}}))
`;

interface View {
  test: string | null;
  names: string[];
  comment: string;
  files: Record<string, { sha: string; method: number; dir: boolean }>;
}

const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
const readWithPython = (file: string): View => JSON.parse(python(READ, file));

function noise(n: number, seed: number): Uint8Array {
  const r = rng(seed);
  return Uint8Array.from({ length: n }, () => Math.floor(r() * 256));
}

/** Checks that Python sees exactly `expected` (name → bytes), each CRC good, no duplicates. */
function expectPythonSees(view: View, expected: Record<string, Uint8Array>): void {
  expect(view.test).toBeNull();
  const files = view.names.filter((n) => !view.files[n].dir);
  expect(files.slice().sort()).toEqual(Object.keys(expected).sort());
  expect(new Set(view.names).size).toBe(view.names.length);
  for (const [name, value] of Object.entries(expected)) expect(view.files[name].sha, name).toBe(sha(value));
}

describe("Python's zipfile reads what the writable zip store writes", () => {
  for (const variant of [
    { compression: "stored" as const },
    { compression: "deflate" as const },
    { compression: "deflate" as const, forceZip64: true },
  ]) {
    it(`rewrites (last wins), deletes, then compact: ${JSON.stringify(variant)}`, async () => {
      requirePythonZarr();
      const file = path.join(tempDir(), "w.zip");
      const zip = await openZipFileForWriting(file, { mode: "w", ...variant });
      const expected: Record<string, Uint8Array> = {
        "zarr.json": utf8(JSON.stringify({ zarr_format: 3, node_type: "group", attributes: { pad: "x".repeat(300) } })),
        "ünïcødé/c/0": pattern(3000, 1),
        "a/c/0": noise(2000, 3),
      };
      await zip.set("a/c/0", noise(5000, 2)); // rewritten below: stale
      for (const [k, v] of Object.entries(expected)) await zip.set(k, v);
      await zip.set("doomed", utf8("deleted before close"));
      await zip.delete("doomed");
      await zip.close();
      const view = readWithPython(file);
      expectPythonSees(view, expected);
      if (variant.compression === "deflate") {
        expect(view.files["zarr.json"].method).toBe(8);
        expect(view.files["a/c/0"].method).toBe(0); // incompressible: stored
      } else {
        expect(Object.values(view.files).every((f) => f.method === 0)).toBe(true);
      }
      // Both copies of "a/c/0" are in the file until compaction; Python reads the newest.
      const sizeBefore = fs.statSync(file).size;
      const again = await openZipFileForWriting(file, variant);
      await again.compact();
      await again.close();
      expect(fs.statSync(file).size).toBeLessThan(sizeBefore - 5000);
      expectPythonSees(readWithPython(file), expected);
    });
  }
});

/** Python writes an archive with stored and deflated members, a directory entry and a comment. */
const WRITE = `
import sys, zipfile
with zipfile.ZipFile(sys.stdin.read(), "w") as zf:
    zf.writestr("zarr.json", b'{"zarr_format":3,"node_type":"group"}', compress_type=zipfile.ZIP_DEFLATED)
    zf.mkdir("folder")
    zf.writestr("folder/keep.bin", bytes(range(256)) * 20, compress_type=zipfile.ZIP_DEFLATED)
    zf.writestr("replace-me", b"old value")
    zf.writestr("delete-me", b"bye")
    zf.comment = b"written by python"
`;

describe("an archive Python's zipfile wrote, appended to by us, read back by Python", () => {
  it("keeps its entries, directory entry and comment; rewrites and deletes; compaction keeps the keys", async () => {
    requirePythonZarr();
    const dir = tempDir();
    const file = path.join(dir, "py.zip");
    python(WRITE, file);
    const zip = await openZipFileForWriting(file, { mode: "a", compression: "deflate" });
    const keep = new Uint8Array(256 * 20).map((_, i) => i % 256);
    expectBytes(await zip.get("folder/keep.bin"), keep);
    expect(await collect(zip.list())).toEqual(["delete-me", "folder/keep.bin", "replace-me", "zarr.json"]);
    await zip.set("replace-me", utf8("new value"));
    await zip.delete("delete-me");
    await zip.set("added/c/0", pattern(4000, 7));
    await zip.close();

    const expected = {
      "zarr.json": utf8('{"zarr_format":3,"node_type":"group"}'),
      "folder/keep.bin": keep,
      "replace-me": utf8("new value"),
      "added/c/0": pattern(4000, 7),
    };
    const view = readWithPython(file);
    expectPythonSees(view, expected);
    expect(view.comment).toBe("written by python");
    expect(view.names).toContain("folder/"); // Python's directory entry is kept as it was
    const reader = new ZipStore(new FileSystemStore(dir), "py.zip");
    expect(new TextDecoder().decode(await reader.get("replace-me"))).toBe("new value");

    const compacting = await openZipFileForWriting(file);
    await compacting.compact();
    await compacting.close();
    const compacted = readWithPython(file);
    expectPythonSees(compacted, expected);
    expect(compacted.names).not.toContain("folder/"); // compaction keeps keys only
    expect(compacted.comment).toBe("written by python");
  });

  it("an archive with duplicate names (Python warns but writes them): closing it unchanged keeps only the later entry", async () => {
    requirePythonZarr();
    const dir = tempDir();
    const file = path.join(dir, "dup.zip");
    python(
      `import sys, warnings, zipfile
warnings.simplefilter("ignore")
with zipfile.ZipFile(sys.stdin.read(), "w") as zf:
    zf.writestr("k", b"first")
    zf.writestr("other", b"o")
    zf.writestr("k", b"second")`,
      file,
    );
    const before = python(`import sys, zipfile; print(zipfile.ZipFile(sys.stdin.read()).namelist())`, file);
    expect(before.trim()).toBe("['k', 'other', 'k']");
    const zip = await openZipFileForWriting(file);
    expect(new TextDecoder().decode(await zip.get("k"))).toBe("second");
    await zip.close(); // no change but the duplicate: the directory is rewritten without it
    const view = readWithPython(file);
    expectPythonSees(view, { k: utf8("second"), other: utf8("o") });
  });
});
