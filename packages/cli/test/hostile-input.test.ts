/**
 * Hostile names and inputs: control characters in node names and attributes are printed
 * escaped, a non-.npy `--from` (even an endless one) fails at once, an absolute PATH is
 * the store's root-relative path, and error messages never print native code.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatNpyHeader } from "../src/npy-header.js";
import { printable, printableJson } from "../src/printable.js";
import { tempDir, zarr, zarrOk } from "./helpers.js";

// biome-ignore lint/suspicious/noControlCharactersInRegex: the tests look for raw control characters.
const RAW_CONTROLS = /[\u0000-\u001f\u007f-\u009f\u202e]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the tests look for raw control characters.
const RAW_CONTROLS_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/;

const group = (attributes: object = {}) => JSON.stringify({ zarr_format: 3, node_type: "group", attributes });

describe("printable", () => {
  it("escapes C0, DEL, C1, line separators and bidi controls, and keeps other text", () => {
    expect(printable("a\nb\tc\rd")).toBe("a\\nb\\tc\\rd");
    expect(printable("\x1b[2J\x07\x00\x7f")).toBe("\\x1b[2J\\x07\\x00\\x7f");
    expect(printable("\u009b31m\u0085")).toBe("\\x9b31m\\x85");
    expect(printable("x\u2028y\u202ez\u2066")).toBe("x\\u2028y\\u202ez\\u2066");
    expect(printable("ünï 温度 °C ~")).toBe("ünï 温度 °C ~");
  });

  it("printableJson keeps the JSON value and escapes what JSON leaves raw", () => {
    const text = JSON.stringify({ name: "a\u009bb\u202e\x1b" });
    const safe = printableJson(text);
    expect(safe).not.toMatch(RAW_CONTROLS);
    expect(JSON.parse(safe)).toEqual(JSON.parse(text));
  });
});

describe("names with control characters", () => {
  it("tree and info print them escaped, never raw", async () => {
    const store = tempDir("zarr-hostile-");
    const evil = "evil\x1b[2J\nname\u009b";
    fs.writeFileSync(path.join(store, "zarr.json"), group());
    fs.mkdirSync(path.join(store, evil));
    fs.writeFileSync(path.join(store, evil, "zarr.json"), group({ title: "t\u009b\u202e" }));
    for (const args of [["tree", store], ["info", store], ["info", store, evil], ["info", store, evil, "--json"]]) {
      const r = await zarrOk(args);
      const out = r.stdout.toString();
      expect(out, args.join(" ")).not.toMatch(RAW_CONTROLS_BUT_NEWLINE);
      if (args[0] === "tree" || args.length === 2) expect(out).toContain("evil\\x1b[2J\\nname\\x9b");
      // One line per entry: the newline in the name did not start a new line.
      if (args[0] === "tree") expect(out.trimEnd().split("\n")).toHaveLength(2);
    }
    const missing = await zarr(["info", store, "no\x1bthing"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).not.toContain("\x1b");
    expect(missing.stderr).toContain("no\\x1bthing");
  });
});

describe("zarr put --from", () => {
  it("fails at once with a coded error on /dev/zero (reads the header first, never the whole input)", async () => {
    if (!fs.existsSync("/dev/zero")) return;
    const store = path.join(tempDir(), "s.zarr");
    const started = performance.now();
    const r = await zarr(["put", store, "x", "--from", "/dev/zero"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^zarr: \[INVALID_ARGUMENT\] Malformed \.npy file "\/dev\/zero": it does not start with the magic string/);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(fs.existsSync(store)).toBe(false);
  });

  it("a header announcing more data than the file holds fails before allocating it", async () => {
    const dir = tempDir();
    const file = path.join(dir, "short.npy");
    fs.writeFileSync(file, Buffer.concat([formatNpyHeader("<f8", [1000, 1000]), Buffer.alloc(16)]));
    const r = await zarr(["put", path.join(dir, "s.zarr"), "x", "--from", file]);
    expect(r.stderr).toMatch(/needs 8000000 data bytes, but the file holds only 16/);
  });
});

describe("zarr put with an absolute PATH", () => {
  it("writes below the store's root, as zarr-python does, and names the path it wrote", async () => {
    const dir = tempDir();
    const file = path.join(dir, "a.npy");
    fs.writeFileSync(file, Buffer.concat([formatNpyHeader("<i4", [3]), Buffer.from(new Int32Array([1, 2, 3]).buffer)]));
    const store = path.join(dir, "s.zarr");
    const r = await zarrOk(["put", store, "/data/x", "--from", file]);
    expect(r.stdout.toString()).toMatch(/^Created array "data\/x" in .*s\.zarr: shape \[3\]/);
    expect(fs.existsSync(path.join(store, "data", "x", "zarr.json"))).toBe(true);
    expect(fs.existsSync("/data/x")).toBe(false);
  });
});

describe("error messages never print [object Object] or native code", () => {
  it("for a fill value that is an object, and an option naming an Object.prototype member", async () => {
    const dir = tempDir();
    const file = path.join(dir, "a.npy");
    fs.writeFileSync(file, Buffer.concat([formatNpyHeader("<i4", [3]), Buffer.from(new Int32Array([1, 2, 3]).buffer)]));
    const fill = await zarr(["put", path.join(dir, "s.zarr"), "x", "--from", file, "--fill-value", '{"a": 1}']);
    expect(fill.code).toBe(1);
    expect(fill.stderr).toMatch(/^zarr: \[INVALID_ARGUMENT\] .*an object/);
    const severity = await zarr(["geozarr", "validate", dir, "--min-severity", "constructor"]);
    expect(severity.code).toBe(2);
    expect(severity.stderr).toContain('--min-severity is error, warning or info, not "constructor"');
    for (const r of [fill, severity]) expect(r.stderr).not.toMatch(/native code|\[object Object\]/);
  });
});
