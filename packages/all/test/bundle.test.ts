/**
 * Browser bundles: what @zarr/core (and an app with store-http and codec-gzip) loads up
 * front stays within its limits and holds no other codec or Node-only code; and a
 * code-split bundle reads and writes every data type, the lazily loaded ones included.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../../..");

interface Sizes {
  initial: number;
  total: number;
  /** What opening a float32 array loads besides (its data type family). */
  floatType: number;
  gzip: number;
  chunks: number;
}
/** What an app loads before its first value: bytes, file names, and each file with its bytes. */
interface FirstRead {
  bytes: number;
  files: string[];
  chunks: { file: string; bytes: number }[];
}
interface Report {
  rows: { package: string; initial: number; total: number }[];
  core: Sizes & { breakdown: { file: string; bytes: number }[] };
  app: Sizes & { leaked: string[]; breakdown: { file: string; bytes: number }[] };
  zarrita: Sizes;
  budgets: { core: number; app: number };
  limits: { core: number; app: number };
  firstReadLimits: { bytes: number; files: number };
  firstRead: Record<"@zarr" | "zarrita.js", FirstRead>;
  intRead: FirstRead & { limits: { bytes: number; files: number } };
  over: string[];
}

// `limits` are checked; they are the budgets (36 KB for core, 50 KB with store-http and
// codec-gzip), reached in session 8, or lower once below them.

// The script exits 1 when a limit is exceeded or code leaks; its report says which.
const run = spawnSync(process.execPath, [join(ROOT, "scripts/bundle-sizes.mjs"), "--json"], { encoding: "utf8", timeout: 120_000 });
const report = JSON.parse(run.stdout) as Report;

describe("bundle sizes (esbuild, code splitting)", () => {
  it("a first read (open, get, HttpStore, gzip) loads at most its limits, the float types lazily and the gzip decoder up front", () => {
    expect(report.over).toEqual([]);
    const ours = report.firstRead["@zarr"];
    expect(ours.files.length).toBeLessThanOrEqual(report.firstReadLimits.files);
    expect(ours.bytes).toBeLessThanOrEqual(report.firstReadLimits.bytes);
    // The lazy part of the read: the float entries (their entry chunk and one of shared
    // code); everything else, the gzip stream decoder included, loads up front.
    expect(ours.files.filter((f) => /^(float-entries|native-stream)-/.test(f))).toEqual([expect.stringMatching(/^float-entries-/)]);
  });

  it("an int16 read loads the integer entries, not an empty chunk nor more files than its limit", () => {
    const int = report.intRead;
    expect(int.files.length).toBeLessThanOrEqual(int.limits.files);
    expect(int.bytes).toBeLessThanOrEqual(int.limits.bytes);
    expect(int.files.filter((f) => f.startsWith("integer-entries-"))).toHaveLength(1);
    // A chunk of re-exports alone (numeric-parts.ts used to be one) costs a request for nothing.
    for (const read of [report.firstRead["@zarr"], int]) expect(read.chunks.filter((c) => c.bytes < 100)).toEqual([]);
  });

  it("an app of @zarr/core + @zarr/codec-gzip + @zarr/store-http holds no other codec or Node-only code", () => {
    expect(report.app.leaked).toEqual([]);
    expect(report.rows).toHaveLength(15);
  });

  it("@zarr/core (open, get, createRegistry) loads at most its limit up front, the rarely used extensions in other chunks", () => {
    expect(report.core.initial).toBeLessThanOrEqual(report.limits.core);
    // The checked limits are the budgets or, once below them, lower (they are never raised).
    expect(report.limits.core).toBeLessThanOrEqual(report.budgets.core);
    expect(report.limits.app).toBeLessThanOrEqual(report.budgets.app);
    // Opening a float32 array loads its data type family: a few KB, not the others.
    expect(report.core.floatType).toBeGreaterThan(2 * 1024);
    expect(report.core.floatType).toBeLessThan(10 * 1024);
    expect(report.core.chunks).toBeGreaterThan(5); // lazy data types, grid, transpose
    expect(report.core.total).toBeGreaterThan(report.core.initial + 20 * 1024);
    const upFront = report.core.breakdown.map((b) => b.file);
    for (const lazy of [
      "struct",
      "rectilinear-grid",
      "transpose",
      "fixed-length-utf32",
      "float16",
      "complex",
      "variable-length",
      // Every data type, the common numeric ones included, loads with the first array of it.
      "data-types/float.js",
      "data-types/float-bits.js",
      "data-types/integer.js",
      "data-types/bool.js",
      "data-types/byte-order.js",
    ]) {
      expect(upFront.filter((f) => f.includes(lazy)), lazy).toEqual([]);
    }
    // Writes, worker pools, the chunk cache, array→array decoding, `get`'s out option, and
    // the messages of rare errors load on first use.
    const firstUse = [
      "core/dist/pipeline-encode.js",
      "core/dist/pipeline-decode-array.js",
      "core/dist/pipeline-chain-errors.js",
      "core/dist/engine/pool-executor.js",
      "core/dist/engine/cached-read.js",
      "core/dist/engine/chunk-buffer.js",
      "core/dist/registry-errors.js",
      "core/dist/limit-errors.js",
      "core/dist/selection-points.js",
      "spec/dist/dimension-projection.js",
      "core/dist/read-out.js",
      "core/dist/node-not-found.js",
      "core/dist/codecs/bytes-configuration.js",
      "core/dist/consolidated-keys.js",
      "core/dist/incomplete-write.js",
      // The full validating parser: plain documents take the fast path (plain-metadata.ts).
      "core/dist/metadata-documents.js",
      "spec/dist/metadata.js",
    ];
    expect(upFront.filter((f) => firstUse.some((m) => f.endsWith(m)))).toEqual([]);
  });

  it("core + store-http + codec-gzip loads at most its limit up front (fflate on first use)", () => {
    expect(report.app.initial).toBeLessThanOrEqual(report.limits.app);
    expect(report.app.total - report.app.initial).toBeGreaterThan(10 * 1024); // fflate and the gzip checks
    // HttpStore reads whole values up front; ranges, sizes, scatter reads, versions and writes load on first use.
    const upFront = report.app.breakdown.map((b) => b.file);
    const firstUse = ["ranged-read", "scatter-read", "size-probe", "writes", "byte-ranges", "range-answer", "bounded-body", "scatter-body", "versions"];
    expect(upFront.filter((f) => f.includes("store-http/dist/") && firstUse.some((m) => f.endsWith(`/${m}.js`)))).toEqual([]);
    expect(upFront.some((f) => f.endsWith("store-http/dist/transport.js"))).toBe(true);
  });
});

describe("a code-split bundle", () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  /** Writes and reads back an array of every data type, a rectilinear grid and transpose; prints canonical JSON. */
  const APP = `
import { createArray, createRegistry, get, MemoryStore, open, set, toCanonicalJson } from "@zarr/core";
import { vlenBytes, vlenUtf8 } from "@zarr/codec-vlen";
import { filterCodecs } from "@zarr/codec-filters";
const registry = createRegistry([vlenUtf8, vlenBytes, ...filterCodecs]);
const store = new MemoryStore();
const cases = [
  ["bool", [true, false]], ["int8", [1, -2]], ["uint16", [1, 65535]], ["int64", [1n, -(2n ** 62n)]],
  ["float32", [1.5, Number.NaN]], ["float64", [0.1, -0]], ["float16", [1.5, 65504]],
  ["complex64", [[1, 2], [3, -4]]], ["r16", [Uint8Array.of(1, 2), Uint8Array.of(3, 4)]],
  ["string", ["a", "bé"]], ["bytes", [Uint8Array.of(1), Uint8Array.of()]],
  [{ name: "fixed_length_utf32", configuration: { length_bytes: 8 } }, ["ab", "c"]],
  [{ name: "numpy.datetime64", configuration: { unit: "s", scale_factor: 1 } }, [0n, 86400n]],
  [{ name: "struct", configuration: { fields: [{ name: "x", data_type: "int16" }, { name: "y", data_type: "float32" }] } }, [{ x: 1, y: 2 }, { x: -1, y: 0.5 }]],
  [{ name: "null_terminated_bytes", configuration: { length_bytes: 3 } }, [Uint8Array.of(104, 105), Uint8Array.of()]],
  ["object", [{ a: 1 }, [1, "x"]]],
];
const out = [];
for (const [i, [dataType, values]] of cases.entries()) {
  const codecs = dataType === "string" ? ["vlen-utf8"] : dataType === "bytes" ? ["vlen-bytes"] : dataType === "object" ? [{ name: "numcodecs.json2", configuration: {} }] : undefined;
  const a = await createArray(store, "a" + i, { shape: [2], chunkShape: [1], dataType, registry, ...(codecs ? { codecs } : {}) });
  await set(a, null, values);
  out.push(toCanonicalJson(await get(await open(store, "a" + i, { registry }))));
}
const grid = await createArray(store, "grid", { shape: [2, 3], chunkShapes: [[1, 1], 3], dataType: "uint8", codecs: [{ name: "transpose", configuration: { order: [1, 0] } }, "bytes"], registry });
await set(grid, null, Uint8Array.from([1, 2, 3, 4, 5, 6]));
out.push(toCanonicalJson(await get(await open(store, "grid", { registry }))));
console.log(JSON.stringify(out));
`;

  /**
   * Runs `app` (an ES module) directly with Node, then bundled with code splitting, and
   * returns both outputs and the inputs of what the bundle loads up front.
   */
  async function runBothWays(app: string): Promise<{ direct: string; bundled: string; upFrontInputs: string[]; outputs: number }> {
    const dir = mkdtempSync(join(tmpdir(), "zarr-split-"));
    dirs.push(dir);
    // The entry lives in packages/all so the workspace packages resolve (to their dist/).
    const entry = join(ROOT, "packages", "all", `.split-app-${process.pid}-${dirs.length}.mjs`);
    writeFileSync(entry, app);
    try {
      const direct = execFileSync(process.execPath, [entry], { encoding: "utf8", timeout: 60_000 });
      const outdir = join(dir, "out");
      mkdirSync(outdir);
      const result = await build({
        entryPoints: [entry],
        bundle: true,
        minify: true,
        format: "esm",
        platform: "browser",
        splitting: true,
        outdir,
        outExtension: { ".js": ".mjs" },
        metafile: true,
        logLevel: "silent",
        absWorkingDir: ROOT,
      });
      const outputs = Object.entries(result.metafile.outputs).filter(([o]) => o.endsWith(".mjs"));
      // Dynamically imported modules are entry points too: pick the app's own output.
      const main = outputs.find(([, o]) => o.entryPoint === relative(ROOT, entry).split(sep).join("/"))?.[0] as string;
      const staticOf = new Set([main, ...result.metafile.outputs[main].imports.filter((i) => i.kind === "import-statement").map((i) => i.path)]);
      const upFrontInputs = [...staticOf].flatMap((o) => Object.keys(result.metafile.outputs[o]?.inputs ?? {}));
      const bundled = execFileSync(process.execPath, [join(ROOT, main)], { encoding: "utf8", timeout: 60_000 });
      return { direct, bundled, upFrontInputs, outputs: outputs.length };
    } finally {
      rmSync(entry, { force: true });
    }
  }

  it("reads and writes every data type, a rectilinear grid and transpose, loading their chunks on demand, as Node does unbundled", async () => {
    const { direct, bundled, upFrontInputs, outputs } = await runBothWays(APP);
    expect(outputs).toBeGreaterThan(5);
    // The struct and rectilinear grid code is in chunks the entry imports only dynamically.
    expect(upFrontInputs.filter((i) => /struct|rectilinear-grid|transpose/.test(i))).toEqual([]);
    expect(bundled).toBe(direct);
    const values = (JSON.parse(bundled) as { values: unknown[] }[]).map((r) => r.values);
    expect(values).toHaveLength(17);
    expect(values[6]).toEqual([1.5, 65504]);
    expect(values[9]).toEqual(["a", "bé"]);
    expect(values[13]).toEqual([{ x: "1", y: 2 }, { x: "-1", y: 0.5 }]); // canonical JSON: integers as strings
    expect(values[16]).toEqual(["1", "2", "3", "4", "5", "6"]);
  });

  /**
   * Writes and reads arrays through an HttpStore over an in-memory fetch (ranges, ETags,
   * conditional PUTs), so every part of the store that loads on first use runs: sizes,
   * scatter reads, range and versioned reads, conditional writes, deletes.
   */
  const HTTP_APP = `
import { createArray, createRegistry, get, open, set, slice } from "@zarr/core";
import { HttpStore } from "@zarr/store-http";
import { gzip } from "@zarr/codec-gzip";
const files = new Map();
const etags = new Map();
let versions = 0;
const fetch = async (url, init) => {
  const key = decodeURIComponent(new URL(url).pathname.slice("/data/".length));
  const h = new Headers(init.headers);
  if (init.method === "PUT") {
    if (h.has("if-match") && h.get("if-match") !== etags.get(key)) return new Response(null, { status: 412 });
    if (h.get("if-none-match") === "*" && files.has(key)) return new Response(null, { status: 412 });
    files.set(key, new Uint8Array(init.body));
    etags.set(key, '"v' + ++versions + '"');
    return new Response(null, { status: 201 });
  }
  if (init.method === "DELETE") return new Response(null, { status: files.delete(key) ? 204 : 404 });
  const value = files.get(key);
  if (value === undefined) return new Response(null, { status: 404 });
  const headers = { etag: etags.get(key), "content-length": String(value.length) };
  if (init.method === "HEAD") return new Response(null, { status: 200, headers });
  const range = /^bytes=(\\d*)-(\\d*)$/.exec(h.get("range") ?? "");
  if (range === null) return new Response(value, { status: 200, headers });
  const start = range[1] === "" ? Math.max(0, value.length - Number(range[2])) : Number(range[1]);
  const end = range[1] === "" || range[2] === "" ? value.length - 1 : Math.min(Number(range[2]), value.length - 1);
  if (start >= value.length) return new Response(null, { status: 416, headers: { "content-range": "bytes */" + value.length } });
  const part = value.slice(start, end + 1);
  const partHeaders = { etag: etags.get(key), "content-length": String(part.length), "content-range": "bytes " + start + "-" + end + "/" + value.length };
  return new Response(part, { status: 206, headers: partHeaders });
};
const store = new HttpStore("http://example.test/data/", { fetch, readOnly: false, retries: 0 });
const registry = createRegistry([gzip]);
const zipped = await createArray(store, "z", { shape: [6, 4], chunkShape: [3, 2], dataType: "int16", codecs: ["bytes", { name: "gzip", configuration: { level: 1 } }], registry });
await set(zipped, null, Int16Array.from({ length: 24 }, (_, i) => i * 3 - 7));
const raw = await createArray(store, "r", { shape: [8], chunkShape: [4], dataType: "uint8", registry });
await set(raw, null, Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8]));
const out = [];
out.push([...(await get(await open(store, "z", { registry }))).data]);
out.push([...(await get(await open(store, "r", { registry }), [slice(1, 7)])).data]);
out.push([...(await store.getRange("r/c/0", { offset: 1, length: 2 }))]);
out.push([...(await store.getRange("r/c/1", { suffixLength: 3 }))]);
out.push(await store.getSize("r/c/0"));
const seen = await store.getVersioned("r/c/0", undefined);
await store.setIfVersion("r/c/0", Uint8Array.of(9, 9, 9, 9), seen.version);
out.push(await store.setIfVersion("r/c/0", Uint8Array.of(0), seen.version).then(() => "written", (e) => e.code));
await store.delete("r/c/1");
out.push([...(await get(await open(store, "r", { registry }))).data]);
out.push(await new HttpStore("http://example.test/data/", { fetch }).set("x", Uint8Array.of(1)).then(() => "written", (e) => e.code));
console.log(JSON.stringify(out));
`;

  it("reads and writes through an HttpStore, loading its range, size, scatter, version and write code on demand, as Node does unbundled", async () => {
    const { direct, bundled, upFrontInputs } = await runBothWays(HTTP_APP);
    expect(upFrontInputs.filter((i) => /store-http\/dist\/(ranged-read|scatter-read|size-probe|writes)\.js$/.test(i))).toEqual([]);
    expect(bundled).toBe(direct);
    const zipped = Array.from({ length: 24 }, (_, i) => i * 3 - 7);
    expect(JSON.parse(bundled)).toEqual([zipped, [2, 3, 4, 5, 6, 7], [2, 3], [6, 7, 8], 4, "STORE_CHANGED", [9, 9, 9, 9, 0, 0, 0, 0], "STORE_READ_ONLY"]);
  });
});
