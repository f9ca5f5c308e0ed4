import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { once } from "node:events";
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { requirePythonZarr } from "../../../scripts/test-env.mjs";
import { formatProgress, progressLine } from "../src/progress.js";
import { CLI, FIXTURES, PYTHON, removeTempDirs, tempDir, zarr, zarrOk } from "./helpers.js";

afterAll(removeTempDirs);

const SOURCE = path.join(FIXTURES, "v3", "data.zarr");

/** Every file below `dir` (relative path with `/` → bytes). */
function files(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const name of readdirSync(dir, { recursive: true }).map(String)) {
    const p = path.join(dir, name);
    if (statSync(p).isFile()) out.set(name.split(path.sep).join("/"), readFileSync(p));
  }
  return out;
}

function expectSameFiles(actual: Map<string, Buffer>, expected: Map<string, Buffer>): void {
  expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
  for (const [name, bytes] of expected) expect(actual.get(name)?.equals(bytes), name).toBe(true);
}

describe("zarr cp", () => {
  it("copies a hierarchy between directories byte for byte, quietly when stderr is not a terminal, and resumes", async () => {
    const original = files(SOURCE);
    const out = path.join(tempDir(), "copy.zarr");
    const r = await zarrOk(["cp", SOURCE, out, "--concurrency", "4"]);
    expect(r.stderr).toBe("");
    expect(r.stdout.toString()).toMatch(new RegExp(`^copied ${original.size} of ${original.size} keys \\(\\d+\\.\\d MiB\\)\\n$`));
    expectSameFiles(files(out), original);

    const again = await zarrOk(["cp", SOURCE, out, "--resume"]);
    expect(again.stdout.toString()).toBe(`copied 0 of ${original.size} keys (0.0 MiB), ${original.size} already there\n`);
    // What the copy holds reads like the original.
    const info = await zarrOk(["tree", out]);
    expect(info.stdout.toString()).toBe((await zarrOk(["tree", SOURCE])).stdout.toString());
  });

  it("writes a zip archive (entries stored) that Python's zipfile reads, and copies it back out", async () => {
    const original = files(SOURCE);
    const dir = tempDir();
    const zip = path.join(dir, "data.zarr.zip");
    const r = await zarrOk(["cp", SOURCE, zip]);
    expect(r.stdout.toString()).toMatch(new RegExp(`^zipped ${original.size} keys \\(\\d+\\.\\d MiB\\) into .*data\\.zarr\\.zip\\n$`));
    expect(readdirSync(dir)).toEqual(["data.zarr.zip"]); // no temporary file left

    const back = path.join(dir, "back.zarr");
    await zarrOk(["cp", zip, back]);
    expectSameFiles(files(back), original);

    requirePythonZarr();
    const listing = JSON.parse(
      execFileSync(
        PYTHON,
        [
          "-c",
          `
import hashlib, json, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    assert z.testzip() is None
    print(json.dumps({i.filename: [i.compress_type, hashlib.sha256(z.read(i)).hexdigest()] for i in z.infolist()}))
`,
          zip,
        ],
        { encoding: "utf8" },
      ),
    ) as Record<string, [number, string]>;
    expect(Object.keys(listing).sort()).toEqual([...original.keys()].sort());
    const { createHash } = await import("node:crypto");
    for (const [name, bytes] of original) {
      expect(listing[name], name).toEqual([0, createHash("sha256").update(bytes).digest("hex")]); // 0 = ZIP_STORED
    }
  });

  it("never archives or copies anything a symbolic link outside the source root points at", async () => {
    const src = path.join(tempDir(), "linked.zarr");
    await zarrOk(["cp", SOURCE, src]);
    const outside = tempDir();
    mkdirSync(path.join(outside, "sub"));
    writeFileSync(path.join(outside, "MARKER"), "secret");
    writeFileSync(path.join(outside, "sub", "zarr.json"), "{}");
    symlinkSync(outside, path.join(src, "escape"));
    symlinkSync(path.join(outside, "MARKER"), path.join(src, "marker-link"));
    const zip = path.join(tempDir(), "out.zip");
    await zarrOk(["cp", src, zip]);
    const names = execFileSync(PYTHON, ["-c", "import sys, zipfile; print('\\n'.join(zipfile.ZipFile(sys.argv[1]).namelist()))", zip], {
      encoding: "utf8",
    });
    expect(names).not.toMatch(/MARKER|marker-link|escape/);
    expect(readFileSync(zip).includes(Buffer.from("secret"))).toBe(false);
    expect(names.trim().split("\n").sort()).toEqual([...files(SOURCE).keys()].sort());
    const copy = path.join(tempDir(), "copy.zarr");
    await zarrOk(["cp", src, copy]);
    expectSameFiles(files(copy), files(SOURCE));
  });

  it("removes temporary files that killed writers left in the destination, and lists none", async () => {
    const out = path.join(tempDir(), "copy.zarr");
    await zarrOk(["cp", SOURCE, out]);
    const dead = execFileSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
    // The name form of store-fs: .<name>.<host tag>-<pid>-<random>.zarr-tmp (host tag: SHA-256 of the host name).
    const hostTag = createHash("sha256").update(os.hostname()).digest("hex").slice(0, 6);
    const orphan = path.join(out, `.zarr.json.${hostTag}-${dead}-0123456789abcdef.zarr-tmp`);
    writeFileSync(orphan, "partial");
    const r = await zarrOk(["cp", SOURCE, out, "--resume"]);
    expect(r.stdout.toString()).toMatch(/already there/);
    expect(statSync(orphan, { throwIfNoEntry: false })).toBeUndefined();
  });

  it("rejects bad arguments with its usage (exit status 2)", async () => {
    const bad = [["cp", SOURCE], ["cp", SOURCE, "x", "--concurrency", "0"], ["cp", SOURCE, "x.zip", "--resume"], ["cp", "a", "b", "c"]];
    const [help, general, ...results] = await Promise.all([zarrOk(["cp", "--help"]), zarrOk(["--help"]), ...bad.map((args) => zarr(args))]);
    for (const [i, r] of results.entries()) {
      expect(r.code, bad[i].join(" ")).toBe(2);
      expect(r.stderr).toContain("Usage: zarr cp SRC DST");
    }
    expect(help.stdout.toString()).toContain("--resume");
    expect(general.stdout.toString()).toContain("cp SRC DST");
  });

  it("says clearly when the source cannot list keys", async () => {
    const r = await zarr(["cp", "http://127.0.0.1:9/data.zarr", path.join(tempDir(), "x")]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^zarr: \[UNSUPPORTED\] Cannot copy from "http:\/\/127\.0\.0\.1:9\/data\.zarr": the store cannot list its keys/);
  });

  it("Ctrl-C stops the copy and leaves no partially written object in the destination", async () => {
    // The source: a zip archive of 40 keys of 64 KiB, served over HTTP with 25 ms per request.
    const dir = tempDir();
    const src = path.join(dir, "src.zarr");
    mkdirSync(path.join(src, "c"), { recursive: true });
    writeFileSync(path.join(src, "zarr.json"), '{"zarr_format":3,"node_type":"group","attributes":{}}');
    for (let i = 0; i < 40; i++) writeFileSync(path.join(src, "c", String(i)), Buffer.alloc(65536, i + 1));
    await zarrOk(["cp", src, path.join(dir, "src.zip")]);
    const archive = readFileSync(path.join(dir, "src.zip"));
    const server = http.createServer((req, res) => {
      setTimeout(() => {
        const m = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? "");
        let body = archive;
        if (m !== null) {
          const start = m[1] === "" ? Math.max(0, archive.length - Number(m[2])) : Number(m[1]);
          const end = m[1] === "" || m[2] === "" ? archive.length - 1 : Math.min(Number(m[2]), archive.length - 1);
          body = archive.subarray(start, end + 1);
          res.writeHead(206, { "Content-Range": `bytes ${start}-${end}/${archive.length}`, "Content-Length": body.length });
        } else res.writeHead(200, { "Content-Length": body.length });
        res.end(body);
      }, 25);
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    try {
      const url = `zip+http://127.0.0.1:${(server.address() as AddressInfo).port}/src.zip`;
      const out = path.join(dir, "out.zarr");
      const child = spawn(process.execPath, [CLI, "cp", url, out, "--concurrency", "2"], { stdio: ["ignore", "pipe", "pipe"] });
      let stderr = "";
      child.stderr.on("data", (d) => (stderr += d));
      const exited = once(child, "exit");
      // Interrupt once a few chunks have arrived.
      for (let i = 0; i < 400; i++) {
        await new Promise((r) => setTimeout(r, 10));
        let n = 0;
        try {
          n = readdirSync(path.join(out, "c")).filter((f) => !f.startsWith(".")).length;
        } catch {}
        if (n >= 3) break;
      }
      child.kill("SIGINT");
      const [code] = await exited;
      expect(code).toBe(1);
      expect(stderr).toMatch(/^zarr: \[ABORTED\] Interrupted: The copy was aborted after \d+ of 41 keys/);
      const copied = files(out);
      expect(copied.size).toBeGreaterThanOrEqual(3);
      expect(copied.size).toBeLessThan(41);
      expect(copied.has("zarr.json")).toBe(false); // metadata goes last
      for (const [name, bytes] of copied) {
        expect(name, "no temporary files").toMatch(/^c\/\d+$/);
        expect(bytes.equals(Buffer.alloc(65536, Number(name.slice(2)) + 1)), name).toBe(true);
      }
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe("the progress line", () => {
  it("shows a bar, keys done of all keys and MiB", () => {
    expect(formatProgress(0, 10, 0)).toBe(`[${"-".repeat(24)}]   0% 0/10 keys  0.0 MiB`);
    expect(formatProgress(5, 10, 3 * 1024 * 1024)).toBe(`[${"#".repeat(12)}${"-".repeat(12)}]  50% 5/10 keys  3.0 MiB`);
    expect(formatProgress(10, 10, 1536 * 1024)).toBe(`[${"#".repeat(24)}] 100% 10/10 keys  1.5 MiB`);
    expect(formatProgress(0, 0, 0)).toContain("100% 0/0 keys");
  });

  it("redraws in place at most every interval, always draws the end, and ends with a newline", () => {
    let t = 0;
    const written: string[] = [];
    const line = progressLine({ write: (s) => written.push(s), columns: 80 }, { intervalMs: 100, now: () => t });
    line.update(0, 4, 0); // drawn
    t = 50;
    line.update(1, 4, 10); // too soon
    t = 120;
    line.update(2, 4, 20); // drawn
    t = 130;
    line.update(3, 4, 30); // too soon
    line.end(); // draws the pending state
    expect(written.map((w) => /(\d)\/4/.exec(w)?.[1] ?? w)).toEqual(["0", "2", "3", "\n"]);
    expect(written[0].startsWith("\r")).toBe(true);
    expect(written[0].endsWith("\x1b[K")).toBe(true);
    const narrow: string[] = [];
    const small = progressLine({ write: (s) => narrow.push(s), columns: 20 });
    small.update(1, 1, 0);
    expect(narrow[0]).toBe(`\r${formatProgress(1, 1, 0).slice(0, 19)}\x1b[K`);
  });
});
