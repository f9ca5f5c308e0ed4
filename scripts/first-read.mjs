// What a browser app loads before its first value: the app (open a float32 gzip array over
// HTTP and read it) is bundled for browsers with esbuild (minified, ESM, code splitting), then
// run, and every module file of the bundle that gets loaded until the value is there is
// recorded, with its bytes. For @zarr (open, get, createRegistry, HttpStore, the gzip codec)
// and for zarrita.js (open, get, FetchStore, its default codecs), the same array.
//
// The bundles run in Node (which has the web APIs they use: fetch, DecompressionStream), with
// a module hook recording each file loaded: the same files a browser fetches, since which
// chunks load is decided by the code's imports, not by the runtime.
//
//   node scripts/first-read.mjs           the sizes as JSON
//   node scripts/first-read.mjs --files   each file loaded, with its bytes and the source files it holds
//   node scripts/first-read.mjs --files --data-type int16   the same read of an array of another data type
import { execFile } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join, normalize, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { build } from "esbuild";

const root = join(import.meta.dirname, "..");

/** How the browser bundles of bundle-sizes.mjs and of this script are made: esbuild, minified ESM, code splitting on. */
export const BROWSER_BUNDLE = Object.freeze({ bundle: true, minify: true, format: "esm", platform: "browser", splitting: true });

const APPS = {
  "@zarr": `import { createRegistry, get, open } from "@zarr/core";
import { HttpStore } from "@zarr/store-http";
import { gzip } from "@zarr/codec-gzip";
export async function firstValue(url) {
  const array = await open(new HttpStore(url), "", { registry: createRegistry([gzip]) });
  return (await get(array, null)).data[5];
}
`,
  "zarrita.js": `import { FetchStore, get, open, root } from "zarrita";
export async function firstValue(url) {
  const array = await open.v3(root(new FetchStore(url)), { kind: "array" });
  return (await get(array, null)).data[5];
}
`,
};

/** A module hook (runs in the loader thread) that posts every loaded file URL to the main thread. */
const HOOKS = `
let port;
export function initialize(data) { port = data.port; }
export async function load(url, context, next) { port.postMessage(url); return next(url, context); }
`;

/** Runs `entry`'s firstValue(url) in a fresh Node process; the files under `dir` it loaded, and the value. */
async function runApp(entry, dir, url) {
  const runner = join(dir, "run.mjs");
  writeFileSync(
    runner,
    `import { register } from "node:module";
import { MessageChannel } from "node:worker_threads";
const { port1, port2 } = new MessageChannel();
const loaded = [];
port1.on("message", (u) => loaded.push(u));
register("data:text/javascript,${encodeURIComponent(HOOKS)}", { data: { port: port2 }, transferList: [port2] });
const { firstValue } = await import(${JSON.stringify(`file://${entry}`)});
const value = await firstValue(${JSON.stringify(url)});
await new Promise((r) => setTimeout(r, 50));
port1.close();
console.log(JSON.stringify({ value, loaded }));
`,
  );
  // Asynchronously: the server answering it runs in this process.
  const { stdout } = await promisify(execFile)(process.execPath, [runner], { encoding: "utf8" });
  const out = JSON.parse(stdout.trim().split("\n").at(-1));
  const files = out.loaded.filter((u) => u.startsWith(`file://${dir}/`) && !u.endsWith("/run.mjs")).map((u) => u.slice(7));
  return { value: out.value, files, bytes: files.reduce((n, f) => n + statSync(f).size, 0) };
}

/** Serves `dir` over HTTP on 127.0.0.1 (with Range support, which zarrita's sharding would use). */
async function serve(dir) {
  const server = http.createServer((req, res) => {
    const path = normalize(join(dir, decodeURIComponent(new URL(req.url, "http://x").pathname)));
    if (!path.startsWith(dir + sep)) return res.writeHead(400).end();
    let body;
    try {
      body = readFileSync(path);
    } catch {
      return res.writeHead(404).end();
    }
    res.writeHead(200, { "content-length": body.length }).end(body);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((r) => server.close(r)) };
}

/** The typed array of each data type `--data-type` takes. */
const VALUES = { float32: Float32Array, float64: Float64Array, int16: Int16Array, uint8: Uint8Array, int32: Int32Array };

/**
 * Bytes and module files each app loads before its first value, e.g.
 * `{ "@zarr": { bytes, files: [...] }, "zarrita.js": { ... } }`. The array is float32 (what
 * the checked limits are for) unless `dataType` names another of VALUES; `libraries` picks
 * some of the apps (default: both).
 */
export async function firstReadSizes(dataType = "float32", libraries = Object.keys(APPS)) {
  const Values = VALUES[dataType];
  if (Values === undefined) throw new Error(`--data-type must be one of ${Object.keys(VALUES).join(", ")}`);
  const work = mkdtempSync(join(tmpdir(), "zarr-first-read-"));
  try {
    const data = join(work, "data.zarr");
    // scripts/ has no dependencies of its own: the built package, by path.
    const { createArray, set, FileSystemStore } = await import(pathToFileURL(join(root, "packages", "all", "dist", "index.js")).href);
    const arr = await createArray(new FileSystemStore(data), "", {
      shape: [64, 64],
      chunkShape: [32, 32],
      dataType,
      codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "gzip", configuration: { level: 5 } }],
    });
    // Element 5 holds 5 (integers) or 2.5 (float types): what each app's read must return.
    const integers = Values !== Float32Array && Values !== Float64Array;
    const expected = integers ? 5 : 2.5;
    await set(arr, null, Values.from({ length: 64 * 64 }, (_, i) => (integers ? i % 100 : i * 0.5)));
    const server = await serve(data);
    const results = {};
    try {
      for (const name of libraries) {
        const code = APPS[name];
        const dir = join(work, name.replace(/\W/g, "_"));
        mkdirSync(dir);
        const entry = join(root, "packages", "all", `.first-read-${process.pid}-${name.replace(/\W/g, "_")}.mjs`);
        writeFileSync(entry, code);
        try {
          const result = await build({
            ...BROWSER_BUNDLE,
            entryPoints: [entry],
            outdir: dir,
            entryNames: "app",
            metafile: true,
            logLevel: "silent",
          });
          if (result.errors.length > 0) throw new Error(`bundling ${name} failed`);
          var outputs = result.metafile.outputs;
        } finally {
          rmSync(entry, { force: true });
        }
        const run = await runApp(join(dir, "app.js"), dir, server.url);
        if (run.value !== expected) throw new Error(`${name} read ${run.value} where ${expected} is stored`);
        const files = run.files.map((f) => f.slice(dir.length + 1));
        // Which source files those bytes come from, largest first.
        const inputs = {};
        for (const [out, o] of Object.entries(outputs)) {
          if (!files.includes(out.split("/").pop())) continue;
          for (const [input, v] of Object.entries(o.inputs)) inputs[input] = (inputs[input] ?? 0) + v.bytesInOutput;
        }
        const breakdown = Object.entries(inputs)
          .sort((a, b) => b[1] - a[1])
          .map(([file, bytes]) => ({ file: file.replace(/^(\.\.\/)*/, "").replace(/^node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?/, ""), bytes }));
        // Each loaded file with its bytes and the source files it holds (for `--files`).
        const chunks = files.map((f) => {
          const o = outputs[Object.keys(outputs).find((out) => out.split("/").pop() === f)];
          return { file: f, bytes: statSync(join(dir, f)).size, inputs: Object.keys(o?.inputs ?? {}).map((i) => i.replace(/^(\.\.\/)*/, "")) };
        });
        results[name] = { bytes: run.bytes, files, breakdown, chunks };
      }
    } finally {
      await server.close();
    }
    return results;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf("--data-type");
  const sizes = await firstReadSizes(at < 0 ? undefined : process.argv[at + 1]);
  if (process.argv.includes("--files")) {
    // node scripts/first-read.mjs --files: each file loaded before the first value, with what it holds.
    for (const [name, r] of Object.entries(sizes)) {
      console.log(`${name}: ${r.bytes} bytes in ${r.files.length} files`);
      for (const c of r.chunks) console.log(`  ${c.file} ${c.bytes}: ${c.inputs.map((i) => i.replace(/^packages\/|\/dist/g, "")).join(" ")}`);
    }
  } else console.log(JSON.stringify(sizes, null, 2));
}
