/** Interop with Python's zipfile: it reads what we write, we read what it writes. */
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { MemoryStore } from "@zarr/core";
import { FileSystemStore } from "@zarr/store-fs";
import { afterAll, describe, expect, it } from "vitest";
import { requirePythonZarr } from "../../../scripts/test-env.mjs";
import { type WriteZipOptions, writeZip, ZipStore } from "../src/index.js";
import { collect, expectBytes, pattern, python, utf8 } from "./helpers.js";

/** Values with awkward names: spaces, unicode, deep paths, an empty value. */
function sampleValues(): Record<string, Uint8Array> {
  return {
    "zarr.json": utf8('{"zarr_format":3,"node_type":"group"}'),
    "my group with spaces/zarr.json": utf8('{"zarr_format":3,"node_type":"group","attributes":{"x":1}}'),
    "ünïcødé/日本語/c/0/0": pattern(3000, 1),
    "arr/c/0": new Uint8Array(0),
    "arr/c/1": pattern(70_000, 2),
    "arr/zarr.json": utf8(JSON.stringify({ zarr_format: 3, node_type: "array", pad: "x".repeat(500) })),
  };
}

/** Reads every archive named on stdin (one path a line) with zipfile; prints what each holds. */
const READ_WITH_PYTHON = `
import hashlib, json, sys, zipfile
result = {}
for path in sys.stdin.read().split("\\n"):
    zf = zipfile.ZipFile(path)
    out = {"test": zf.testzip(), "comment": zf.comment.decode(), "files": {}, "names": zf.namelist()}
    for info in zf.infolist():
        data = zf.read(info.filename)
        out["files"][info.filename] = {"sha": hashlib.sha256(data).hexdigest(), "method": info.compress_type,
            "utf8": bool(info.flag_bits & 0x800), "size": info.file_size, "zip64": info.extract_version >= 45}
    result[path] = out
print(json.dumps(result))
`;

interface PythonView {
  test: string | null;
  comment: string;
  names: string[];
  files: Record<string, { sha: string; method: number; utf8: boolean; size: number; zip64: boolean }>;
}

const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

const VARIANTS: WriteZipOptions[] = [
  { compression: "stored" },
  { compression: "deflate" },
  { compression: "stored", forceZip64: true },
  { compression: "deflate", forceZip64: true, comment: "a comment ✓" },
];

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "zarr-store-zip-py-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** Writes one archive per variant (and one with writeZipFile), then has Python read them all in one run. */
let ours: Promise<Record<string, PythonView>> | undefined;
function writeOursAndReadWithPython(): Promise<Record<string, PythonView>> {
  ours ??= (async () => {
    const source = new MemoryStore();
    for (const [k, v] of Object.entries(sampleValues())) await source.set(k, v);
    const paths: string[] = [];
    for (const [i, variant] of VARIANTS.entries()) {
      await writeZip(source, new FileSystemStore(scratch), `ours-${i}.zip`, variant);
      paths.push(path.join(scratch, `ours-${i}.zip`));
    }
    const { writeZipFile } = await import("../src/node.js");
    const streamed = path.join(scratch, "streamed.zip");
    const summary = await writeZipFile(source, streamed, { compression: "deflate", level: 9 });
    expect(summary.entries).toBe(6);
    expect(fs.statSync(streamed).size).toBe(summary.size);
    paths.push(streamed);
    return JSON.parse(python(READ_WITH_PYTHON, paths.join("\n")));
  })();
  return ours;
}

describe("Python's zipfile reads what writeZip writes", () => {
  for (const [i, variant] of VARIANTS.entries()) {
    it(JSON.stringify(variant), async () => {
      requirePythonZarr();
      const values = sampleValues();
      const result = (await writeOursAndReadWithPython())[path.join(scratch, `ours-${i}.zip`)];
      expect(result.test).toBeNull(); // testzip: every CRC checks
      expect(result.comment).toBe(variant.comment ?? "");
      expect(result.names.slice().sort()).toEqual(Object.keys(values).sort());
      // Metadata documents come first in the archive.
      expect(result.names.slice(0, 3).every((n: string) => n.endsWith("zarr.json"))).toBe(true);
      for (const [name, value] of Object.entries(values)) {
        const f = result.files[name];
        expect(f.sha, name).toBe(sha(value));
        expect(f.size).toBe(value.length);
        expect(f.utf8).toBe([...name].some((ch) => ch.charCodeAt(0) > 0x7f));
        expect(f.zip64).toBe(variant.forceZip64 === true);
        // Deflate is used where it helps (tiny values may be stored); stored means stored.
        if (variant.compression === "stored" || value.length === 0) expect(f.method).toBe(0);
        else if (value.length >= 500) expect(f.method).toBe(8);
        else expect([0, 8]).toContain(f.method);
      }
      // And we read our own archive back.
      const zip = new ZipStore(new FileSystemStore(scratch), `ours-${i}.zip`);
      expect((await zip.open()).zip64).toBe(variant.forceZip64 === true);
      for (const [name, value] of Object.entries(values)) expectBytes(await zip.get(name), value, name);
    });
  }

  it("a writeZipFile archive streamed to disk", async () => {
    requirePythonZarr();
    const result = (await writeOursAndReadWithPython())[path.join(scratch, "streamed.zip")];
    expect(result.test).toBeNull();
    for (const [name, value] of Object.entries(sampleValues())) expect(result.files[name].sha).toBe(sha(value));
  });
});

/** Python writes a set of archives into a directory and prints what each holds. */
const WRITE_WITH_PYTHON = String.raw`
import io, json, os, sys, zipfile
d = sys.argv[1]
files = {"zarr.json": b'{"zarr_format":3,"node_type":"group"}', "a b/c.bin": bytes(range(256)) * 40,
         "ünï/x": "ünï".encode() * 100, "empty": b""}
def fill(zf):
    for name, data in files.items():
        zf.writestr(name, data)
with zipfile.ZipFile(os.path.join(d, "stored.zip"), "w", zipfile.ZIP_STORED) as zf: fill(zf)
with zipfile.ZipFile(os.path.join(d, "deflated.zip"), "w", zipfile.ZIP_DEFLATED) as zf: fill(zf)
with zipfile.ZipFile(os.path.join(d, "zip64.zip"), "w", zipfile.ZIP_DEFLATED, allowZip64=True) as zf:
    fill(zf)
    with zf.open("forced64.bin", "w", force_zip64=True) as f: f.write(b"zip64!" * 1000)
with zipfile.ZipFile(os.path.join(d, "comment.zip"), "w") as zf:
    fill(zf)
    zf.comment = b"a long archive comment " * 100
with zipfile.ZipFile(os.path.join(d, "dirs.zip"), "w") as zf:
    zf.mkdir("folder")
    zf.mkdir("folder/sub")
    fill(zf)
class Unseekable(io.RawIOBase):
    def __init__(self, f): self.f = f
    def writable(self): return True
    def seekable(self): return False
    def write(self, b): return self.f.write(b)
for name, method in (("descriptor.zip", zipfile.ZIP_DEFLATED), ("descriptor-stored.zip", zipfile.ZIP_STORED)):
    with open(os.path.join(d, name), "wb") as raw:
        with zipfile.ZipFile(Unseekable(raw), "w", method) as zf:
            for n, data in files.items():
                with zf.open(n, "w") as f: f.write(data)
# Names Python writes as given but a store must not serve as such.
with zipfile.ZipFile(os.path.join(d, "odd-names.zip"), "w") as zf:
    zf.writestr("./dot/x", b"dot")
    zf.writestr("/abs/y", b"abs")
    zf.writestr("../escape", b"evil")
    zf.writestr("a/../../escape2", b"evil")
    zf.writestr("back\\slash", b"bs")
    zf.writestr("ok//double", b"dbl")
# A CP437 name: write "cafX" and patch the byte to 0x82 ("é" in CP437) in both headers.
buf = io.BytesIO()
with zipfile.ZipFile(buf, "w") as zf: zf.writestr("cafX.txt", b"cp437")
with open(os.path.join(d, "cp437.zip"), "wb") as f: f.write(buf.getvalue().replace(b"cafX", b"caf\x82"))
out = {}
for name in sorted(os.listdir(d)):
    with zipfile.ZipFile(os.path.join(d, name)) as zf:
        out[name] = {"flags": sorted({i.flag_bits for i in zf.infolist()}),
                     "files": {i.filename: zf.read(i).hex() for i in zf.infolist() if not i.is_dir()}}
print(json.dumps(out))
`;

describe("we read what Python's zipfile writes", () => {
  let written: { dir: string; manifest: Record<string, { flags: number[]; files: Record<string, string> }> } | undefined;
  const writeArchives = () => {
    if (written === undefined) {
      const dir = path.join(scratch, "python");
      fs.mkdirSync(dir);
      written = { dir, manifest: JSON.parse(python(WRITE_WITH_PYTHON.replace("sys.argv[1]", JSON.stringify(dir)))) };
    }
    return written;
  };
  const hex = (b: Uint8Array | undefined) => Buffer.from(b ?? []).toString("hex");

  for (const name of ["stored.zip", "deflated.zip", "zip64.zip", "comment.zip", "dirs.zip", "descriptor.zip", "descriptor-stored.zip"]) {
    it(name, async () => {
      requirePythonZarr();
      const { dir, manifest } = writeArchives();
      const expected = manifest[name].files;
      const store = new ZipStore(new FileSystemStore(dir), name);
      const info = await store.open();
      expect(await collect(store.list())).toEqual(Object.keys(expected).sort());
      for (const [key, data] of Object.entries(expected)) {
        expect(hex(await store.get(key)), key).toBe(data);
        const bytes = Buffer.from(data, "hex");
        expect(hex(await store.getRange(key, { offset: 3, length: 500 }))).toBe(bytes.subarray(3, 503).toString("hex"));
        expect(hex(await store.getRange(key, { suffixLength: 7 }))).toBe(bytes.subarray(Math.max(0, bytes.length - 7)).toString("hex"));
      }
      // Python puts ZIP64 extra fields in the local header of the forced entry only.
      if (name === "zip64.zip") expect(Object.keys(expected)).toContain("forced64.bin");
      if (name === "comment.zip") expect(info.comment).toBe("a long archive comment ".repeat(100));
      if (name.startsWith("descriptor")) expect(manifest[name].flags.some((f) => (f & 8) !== 0)).toBe(true);
      if (name === "dirs.zip") expect(await store.listDir("")).toEqual({ keys: ["empty", "zarr.json"], prefixes: ["a b", "ünï"] });
    });
  }

  it("normalises ./ and / names, skips names that escape or are not keys, decodes CP437", async () => {
    requirePythonZarr();
    const { dir } = writeArchives();
    const store = new ZipStore(new FileSystemStore(dir), "odd-names.zip");
    const info = await store.open();
    expect(await collect(store.list())).toEqual(["abs/y", "dot/x", "ok/double"]);
    expect(new TextDecoder().decode(await store.get("dot/x"))).toBe("dot");
    expect(new TextDecoder().decode(await store.get("abs/y"))).toBe("abs");
    expect(info.skipped.map((s) => s.name).sort()).toEqual(["../escape", "a/../../escape2", "back\\slash"]);
    expect(info.skipped.find((s) => s.name === "../escape")?.reason).toContain("..");
    const cp = new ZipStore(new FileSystemStore(dir), "cp437.zip");
    expect(await collect(cp.list())).toEqual(["café.txt"]);
    expect(new TextDecoder().decode(await cp.get("café.txt"))).toBe("cp437");
  });
});
