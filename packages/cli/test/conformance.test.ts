/**
 * Conformance with zarr-python 3: `zarr get --format json` of every array in the v3
 * fixture store equals the expected values, or, when the array needs a codec the CLI's
 * registry lacks, fails with one CODEC_UNKNOWN line naming a missing codec.
 */
import { once } from "node:events";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliRegistry } from "../src/registry.js";
import { CONCURRENCY, FIXTURES, jsonDifference, parseGetJson, pool, type RunResult, zarr } from "./helpers.js";

const STORE = path.join(FIXTURES, "v3", "data.zarr");
const EXPECTED = path.join(FIXTURES, "expected", "v3");

interface CodecDef {
  name: string;
  configuration?: { codecs?: CodecDef[]; index_codecs?: CodecDef[] };
}

/** Every codec name in a chain, nested sharding chains included, in order. */
function codecNames(codecs: (CodecDef | string)[]): string[] {
  const out: string[] = [];
  for (const c of codecs) {
    if (typeof c === "string") {
      out.push(c);
      continue;
    }
    out.push(c.name);
    out.push(...codecNames(c.configuration?.codecs ?? []), ...codecNames(c.configuration?.index_codecs ?? []));
  }
  return out;
}

/** Paths (relative to the store) of every array document. */
function arrayPaths(dir: string, rel = ""): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir).sort()) {
    const full = path.join(dir, entry);
    if (!statSync(full).isDirectory()) continue;
    const childRel = rel === "" ? entry : `${rel}/${entry}`;
    try {
      const doc = JSON.parse(readFileSync(path.join(full, "zarr.json"), "utf8"));
      if (doc.node_type === "array") {
        out.push(childRel);
        continue;
      }
    } catch {
      // no zarr.json: an implicit group or a chunk directory
    }
    out.push(...arrayPaths(full, childRel));
  }
  return out;
}

const arrays = arrayPaths(STORE);
const registry = cliRegistry();
const results = new Map<string, RunResult>();

beforeAll(async () => {
  const runs = await pool(arrays, CONCURRENCY, (p) => zarr(["get", STORE, p, "--format", "json"]));
  for (const [i, p] of arrays.entries()) results.set(p, runs[i]);
});

describe("zarr get on zarr-python 3 fixtures", () => {
  it("finds every array that has expected values", () => {
    expect(arrays.length).toBeGreaterThanOrEqual(40);
    for (const p of arrays) expect(statSync(path.join(EXPECTED, `${p.replaceAll("/", "__")}.json`)).isFile()).toBe(true);
  });

  it.each(arrays)("%s", (p) => {
    const meta = JSON.parse(readFileSync(path.join(STORE, p, "zarr.json"), "utf8"));
    const names = codecNames(meta.codecs);
    const missing = names.filter((n) => !registry.has("codec", n));
    const r = results.get(p)!;
    if (missing.length === 0) {
      expect(r.stderr, r.stderr).toBe("");
      expect(r.code).toBe(0);
      const got = parseGetJson(r.stdout.toString("utf8"));
      const expected = JSON.parse(readFileSync(path.join(EXPECTED, `${p.replaceAll("/", "__")}.json`), "utf8"));
      expect(got.shape).toEqual(expected.shape);
      expect(jsonDifference(got.values, expected.values)).toBeUndefined();
    } else {
      expect(r.code).toBe(1);
      expect(r.stdout.length).toBe(0);
      const lines = r.stderr.split("\n").filter((l) => l !== "");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^zarr: \[CODEC_UNKNOWN\] /);
      expect(missing.some((n) => lines[0].includes(`"${n}"`))).toBe(true);
    }
  });

  it("reads at least one fixture completely with the built-in codecs", () => {
    const readable = arrays.filter((p) => results.get(p)?.code === 0);
    expect(readable).toContain("1d.contiguous.raw.i2");
  });
});

describe("zarr get on the zipped fixtures and through file: URLs", () => {
  const cases = [
    ["v3/data.zipped_from_within.zarr.zip", "3d.chunked.mixed.compressed.sharded.i2"],
    ["v3/data.zipped_from_parent.zarr.zip", "1d.contiguous.blosc.i2"],
    ["v3/data.uncompressed.zarr.zip", "2d.chunked.string.vlen"],
  ] as const;
  it.each(cases)("%s %s", async (zip, p) => {
    const r = await zarr(["get", path.join(FIXTURES, zip), p, "--format", "json"]);
    expect(r.stderr).toBe("");
    const expected = JSON.parse(readFileSync(path.join(EXPECTED, `${p.replaceAll("/", "__")}.json`), "utf8"));
    expect(jsonDifference(parseGetJson(r.stdout.toString("utf8")).values, expected.values)).toBeUndefined();
  });
  it("file: URL", async () => {
    const r = await zarr(["get", pathToFileURL(STORE).href, "1d.contiguous.f8", "--format", "json"]);
    expect(r.code).toBe(0);
  });
});

describe("zarr get over HTTP (node:http transport, range reads)", () => {
  // The fixtures served from 127.0.0.1 with single byte ranges, as a static file server would.
  const ranges: string[] = [];
  const server = http.createServer(async (req, res) => {
    const file = path.join(FIXTURES, decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname));
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      return res.writeHead(404).end();
    }
    const m = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? "");
    if (m === null) return res.writeHead(200, { "content-length": body.length }).end(body);
    ranges.push(req.headers.range as string);
    const start = m[1] === "" ? Math.max(0, body.length - Number(m[2])) : Number(m[1]);
    const end = m[1] !== "" && m[2] !== "" ? Math.min(Number(m[2]), body.length - 1) : body.length - 1;
    if (start >= body.length) return res.writeHead(416, { "content-range": `bytes */${body.length}` }).end();
    res.writeHead(206, { "content-range": `bytes ${start}-${end}/${body.length}`, "content-length": end - start + 1 });
    res.end(body.subarray(start, end + 1));
  });
  let base: string;
  beforeAll(async () => {
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  const cases = [
    ["v3/data.zarr", "1d.contiguous.raw.i2"], // uncompressed: scatter-read straight into the result
    ["v3/data.zarr", "2d.chunked.ragged.i2"],
    ["v3/data.zarr", "3d.chunked.mixed.compressed.sharded.i2"], // shard index + inner chunk ranges
    ["v3/data.zarr", "2d.chunked.string.vlen"],
  ] as const;
  it.each(cases)("%s %s", async (store, p) => {
    const r = await zarr(["get", `${base}/${store}`, p, "--format", "json"]);
    expect(r.stderr).toBe("");
    const expected = JSON.parse(readFileSync(path.join(EXPECTED, `${p.replaceAll("/", "__")}.json`), "utf8"));
    expect(jsonDifference(parseGetJson(r.stdout.toString("utf8")).values, expected.values)).toBeUndefined();
  });

  it("a zip archive on the server, read with range requests (zip+http)", async () => {
    ranges.length = 0;
    const r = await zarr(["get", `zip+${base}/v3/data.uncompressed.zarr.zip`, "1d.contiguous.raw.i2", "--format", "json"]);
    expect(r.stderr).toBe("");
    const expected = JSON.parse(readFileSync(path.join(EXPECTED, "1d.contiguous.raw.i2.json"), "utf8"));
    expect(jsonDifference(parseGetJson(r.stdout.toString("utf8")).values, expected.values)).toBeUndefined();
    expect(ranges.length).toBeGreaterThan(0);
  });
});
