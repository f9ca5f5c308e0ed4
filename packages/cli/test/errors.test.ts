/**
 * Failures of the built `zarr` command: each exits non-zero with exactly one line on
 * standard error naming the problem (no stack trace), and nothing is written outside the
 * store (nor, for failures found before writing, inside it).
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliRegistry } from "../src/registry.js";
import { FIXTURES, python, type RunResult, removeTempDirs, TEST_DIR, tempDir, zarr, zarrOk } from "./helpers.js";

/** Every path below `dir`, sorted. */
function snapshot(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string, rel: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const r = rel === "" ? e.name : `${rel}/${e.name}`;
      out.push(r);
      if (e.isDirectory()) walk(path.join(d, e.name), r);
    }
  };
  walk(dir, "");
  return out.sort();
}

/** Asserts one error line `zarr: [CODE] ...` and returns it. */
function oneErrorLine(r: RunResult, code: string): string {
  expect(r.code, r.command).toBe(1);
  expect(r.stdout.length, r.command).toBe(0);
  expect(r.stderr.endsWith("\n"), r.command).toBe(true);
  const lines = r.stderr.slice(0, -1).split("\n");
  expect(lines, r.command).toHaveLength(1);
  expect(lines[0]).toMatch(new RegExp(`^zarr: \\[${code}\\] \\S`));
  expect(lines[0]).not.toMatch(/\n\s+at /);
  return lines[0];
}

let inputs: string; // .npy files, outside the directories under test
let parent: string; // holds the store; must not change except inside the store
let store: string;

afterAll(removeTempDirs);

beforeAll(async () => {
  inputs = tempDir("zarr-cli-inputs-");
  parent = tempDir("zarr-cli-errors-");
  store = path.join(parent, "store.zarr");
  python(
    `
import sys, numpy as np
np.save(sys.argv[1] + "/ok.npy", np.arange(11, dtype="<i2"))
np.save(sys.argv[1] + "/f4.npy", np.arange(6, dtype="<f4"))
np.save(sys.argv[1] + "/i8.npy", np.array([1, 2**40], dtype="<i8"))
np.save(sys.argv[1] + "/S.npy", np.array([b"ab", b""], dtype="S2"))
`,
    [inputs],
  );
  // Broken ones: a cut-off file, and a header that lies about the shape.
  const ok = readFileSync(path.join(inputs, "ok.npy"));
  writeFileSync(path.join(inputs, "truncated.npy"), ok.subarray(0, ok.length - 5));
  writeFileSync(path.join(inputs, "garbage.npy"), "this is not a numpy file\n");
  await zarrOk(["put", store, "a", "--from", path.join(inputs, "ok.npy"), "--chunks", "4"]);
  await zarrOk(["put", store, "g/b", "--from", path.join(inputs, "ok.npy")]);
}, 120_000);

describe("errors: one line, exit 1", () => {
  it("a missing store directory", async () => {
    const before = snapshot(parent);
    const missing = path.join(parent, "nope.zarr");
    for (const args of [["info", missing], ["tree", missing], ["get", missing, "a"]]) {
      const line = oneErrorLine(await zarr(args), "NODE_NOT_FOUND");
      expect(line).toContain(missing);
      expect(line).toContain("does not exist");
    }
    expect(snapshot(parent)).toEqual(before);
  });

  it("a missing node", async () => {
    expect(oneErrorLine(await zarr(["get", store, "missing"]), "NODE_NOT_FOUND")).toContain('"missing"');
    expect(oneErrorLine(await zarr(["info", store, "g/missing"]), "NODE_NOT_FOUND")).toContain('"g/missing"');
    expect(oneErrorLine(await zarr(["get", store, "g"]), "NODE_NOT_FOUND")).toContain("is a group");
  });

  it("a selection out of range, or malformed", async () => {
    expect(oneErrorLine(await zarr(["get", store, "a", "--select", "11"]), "OUT_OF_BOUNDS")).toContain("Index 11");
    expect(oneErrorLine(await zarr(["get", store, "a", "--select", "[0, -12]"]), "OUT_OF_BOUNDS")).toContain("-12");
    expect(oneErrorLine(await zarr(["get", store, "a", "--select", "1:2:3:4"]), "INVALID_SELECTION")).toContain("1:2:3:4");
    expect(oneErrorLine(await zarr(["get", store, "a", "--select", "0, 0"]), "INVALID_SELECTION")).toContain("2 entries");
    expect(oneErrorLine(await zarr(["get", store, "a", "--select", "x"]), "INVALID_SELECTION")).toContain('"x"');
  });

  it("malformed zarr.json (copies of a fixture with one field broken)", async () => {
    const dir = tempDir("zarr-cli-broken-");
    const source = path.join(FIXTURES, "v3", "data.zarr", "1d.contiguous.raw.i2");
    const original = JSON.parse(readFileSync(path.join(source, "zarr.json"), "utf8"));
    const broken: [string, string, RegExp][] = [
      ["shape", JSON.stringify({ ...original, shape: [-4] }), /\$\.shape\[0\]/],
      ["fill", JSON.stringify({ ...original, fill_value: "lots" }), /\$\.fill_value/],
      ["endian", JSON.stringify({ ...original, codecs: [{ name: "bytes", configuration: { endian: "middle" } }] }), /\$\.codecs\[0\]\.configuration\.endian/],
      ["grid", JSON.stringify({ ...original, chunk_grid: { name: "regular", configuration: { chunk_shape: [0] } } }), /\$\.chunk_grid\.configuration\.chunk_shape\[0\]/],
      ["text", `${JSON.stringify(original).slice(0, 40)}`, /not valid JSON/],
    ];
    for (const [name, text] of broken) {
      cpSync(source, path.join(dir, name), { recursive: true });
      writeFileSync(path.join(dir, name, "zarr.json"), text);
    }
    for (const [name, , where] of broken) {
      for (const command of ["get", "info"]) {
        const line = oneErrorLine(await zarr([command, dir, name]), "METADATA_INVALID");
        expect(line).toContain(`"${name}/zarr.json"`);
        expect(line).toMatch(where);
      }
    }
    // tree lists a node before anything else: the broken document is named there too
    expect(oneErrorLine(await zarr(["tree", dir]), "METADATA_INVALID")).toContain("/zarr.json");
  });

  it("an unknown data type in zarr.json", async () => {
    const dir = tempDir("zarr-cli-broken-");
    const source = path.join(FIXTURES, "v3", "data.zarr", "1d.contiguous.raw.i2");
    cpSync(source, path.join(dir, "x"), { recursive: true });
    const meta = JSON.parse(readFileSync(path.join(source, "zarr.json"), "utf8"));
    writeFileSync(path.join(dir, "x", "zarr.json"), JSON.stringify({ ...meta, data_type: "int17" }));
    expect(oneErrorLine(await zarr(["get", dir, "x"]), "UNSUPPORTED")).toContain('"int17"');
  });

  it("malformed .npy files: nothing is written", async () => {
    const before = snapshot(parent);
    const fresh = path.join(parent, "fresh.zarr");
    for (const [file, problem] of [
      ["truncated.npy", /needs 22 data bytes, but the file holds only 17/],
      ["garbage.npy", /magic string/],
    ] as const) {
      const input = path.join(inputs, file);
      for (const target of [store, fresh]) {
        const line = oneErrorLine(await zarr(["put", target, "new", "--from", input]), "INVALID_ARGUMENT");
        expect(line).toContain(`"${input}"`);
        expect(line).toMatch(problem);
      }
    }
    const missing = path.join(inputs, "missing.npy");
    expect(oneErrorLine(await zarr(["put", fresh, "new", "--from", missing]), "INVALID_ARGUMENT")).toContain("no such file");
    expect(snapshot(parent)).toEqual(before);
  });

  it("a PATH with '..': nothing is written outside the store (or in it)", async () => {
    const before = snapshot(parent);
    const ok = path.join(inputs, "ok.npy");
    for (const p of ["../escape", "a/../../escape", "..", "x/./y"]) {
      const line = oneErrorLine(await zarr(["put", store, p, "--from", ok]), "INVALID_ARGUMENT");
      expect(line).toContain(JSON.stringify(p));
    }
    oneErrorLine(await zarr(["get", store, "../store.zarr/a"]), "INVALID_ARGUMENT");
    oneErrorLine(await zarr(["info", store, "g/.."]), "INVALID_ARGUMENT");
    expect(snapshot(parent)).toEqual(before);
    expect(readdirSync(path.dirname(parent)).filter((n) => n === "escape")).toEqual([]);
  });

  it("bad option values: nothing is written", async () => {
    const before = snapshot(parent);
    const ok = path.join(inputs, "ok.npy");
    const bad: [string[], string, RegExp][] = [
      [["--chunks", "4,x"], "INVALID_ARGUMENT", /--chunks/],
      [["--chunks", "0"], "INVALID_ARGUMENT", /--chunks/],
      [["--chunks", "[[5, 5]]"], "METADATA_INVALID", /chunk_grid/],
      [["--codecs", "{oops"], "INVALID_ARGUMENT", /--codecs/],
      [["--attrs", "[1]"], "INVALID_ARGUMENT", /--attrs/],
      [["--fill-value", "seven"], "INVALID_ARGUMENT", /--fill-value/],
      [["--fill-value", "70000"], "INVALID_ARGUMENT", /70000 in a int16/],
      [["--data-type", "int17"], "UNSUPPORTED", /int17/],
      [["--data-type", "int8", "--from", path.join(inputs, "i8.npy")], "INVALID_ARGUMENT", /Element 1 .* cannot be stored as int8/],
      [["--dimension-names", "x,y"], "METADATA_INVALID", /dimension_names/],
    ];
    for (const [options, code, pattern] of bad) {
      const r = await zarr(["put", path.join(parent, "fresh.zarr"), "new", "--from", ok, ...options]);
      expect(oneErrorLine(r, code), options.join(" ")).toMatch(pattern);
    }
    expect(snapshot(parent)).toEqual(before);
  });

  it("a codec the registry lacks: CODEC_UNKNOWN, nothing is written", async () => {
    const before = snapshot(parent);
    const ok = path.join(inputs, "ok.npy");
    const missing = ["no-such-codec", "gzip"].find((n) => !cliRegistry().has("codec", n))!;
    const codecs = JSON.stringify([{ name: "bytes", configuration: { endian: "little" } }, { name: missing }]);
    const line = oneErrorLine(await zarr(["put", store, "new", "--from", ok, "--codecs", codecs]), "CODEC_UNKNOWN");
    expect(line).toContain(`"${missing}"`);
    expect(snapshot(parent)).toEqual(before);
  });

  it("an existing node without --overwrite: NODE_EXISTS", async () => {
    const line = oneErrorLine(await zarr(["put", store, "a", "--from", path.join(inputs, "ok.npy")]), "NODE_EXISTS");
    expect(line).toContain('"a"');
  });

  it("variable-length types need their codec package", async () => {
    const registry = cliRegistry();
    const s = path.join(tempDir(), "vlen.zarr");
    const r = await zarr(["put", s, "b", "--from", path.join(inputs, "S.npy"), "--data-type", "bytes"]);
    if (registry.has("codec", "vlen-bytes")) {
      expect(r.code).toBe(0);
      const got = JSON.parse((await zarrOk(["get", s, "b"])).stdout.toString("utf8"));
      expect(got.values).toEqual(["6162", ""]);
    } else {
      expect(oneErrorLine(r, "CODEC_UNKNOWN")).toContain('"vlen-bytes"');
    }
  });
});

describe("usage errors: usage text, exit 2, no stack trace", () => {
  const cases: [string, string[], RegExp][] = [
    ["no command", [], /^zarr: missing command\nUsage: zarr <command>/],
    ["unknown command", ["frobnicate"], /^zarr: unknown command "frobnicate"\nUsage: zarr <command>/],
    ["unknown option", ["info", "x", "--bogus"], /^zarr: Unknown option '--bogus'.*\nUsage: zarr info/],
    ["missing STORE", ["tree"], /^zarr: missing arguments\nUsage: zarr tree/],
    ["too many arguments", ["info", "a", "b", "c"], /^zarr: unexpected argument "c"\nUsage: zarr info/],
    ["missing --from", ["put", "s", "p"], /^zarr: --from FILE.npy is required\nUsage: zarr put/],
    ["option without value", ["get", "s", "p", "--select"], /^zarr: Option '--select <value>' argument missing\nUsage: zarr get/],
    ["bad --format", ["get", "s", "p", "--format", "csv"], /^zarr: unknown format "csv" \(expected json or npy\)\nUsage: zarr get/],
  ];
  it.each(cases)("%s", async (_name, args, pattern) => {
    const r = await zarr(args);
    expect(r.code).toBe(2);
    expect(r.stdout.length).toBe(0);
    expect(r.stderr).toMatch(pattern);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe("help", () => {
  it("zarr --help and zarr <command> --help print usage and exit 0", async () => {
    const general = await zarr(["--help"]);
    expect(general.code).toBe(0);
    expect(general.stdout.toString()).toMatch(/^Usage: zarr <command>/);
    for (const command of ["info", "tree", "get", "put"]) {
      const r = await zarr([command, "--help"]);
      expect(r.code, command).toBe(0);
      expect(r.stderr).toBe("");
      expect(r.stdout.toString()).toMatch(new RegExp(`^Usage: zarr ${command} `));
    }
    const version = await zarr(["--version"]);
    expect(version.stdout.toString().trim()).toBe(
      JSON.parse(readFileSync(path.resolve(TEST_DIR, "../package.json"), "utf8")).version,
    );
  });
});

describe("the store is left alone", () => {
  it("reading commands create nothing", async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, "empty.zarr"));
    const before = snapshot(dir);
    oneErrorLine(await zarr(["get", path.join(dir, "empty.zarr"), "x"]), "NODE_NOT_FOUND");
    oneErrorLine(await zarr(["info", path.join(dir, "empty.zarr")]), "NODE_NOT_FOUND");
    expect(snapshot(dir)).toEqual(before);
  });
});
