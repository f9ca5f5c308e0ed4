/**
 * The read limits of every command: `--max-chunk-bytes`, `--max-value-bytes`, `--timeout`,
 * `--max-ratio` and their `ZARR_*` variables. Parsing (sizes, durations, ratios, bad values
 * as usage errors naming the flag or variable), then whole `zarr` processes: a zstd bomb of
 * a string chunk, a chunk over the limit, an endless and a stalled HTTP body.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_READ_LIMITS, parseDuration, parseRatio, parseSize, readLimits, storeLimitSettings } from "../src/read-limits.js";
import { GENERAL_USAGE, USAGE, UsageError } from "../src/usage.js";
import { zarr } from "./helpers.js";

describe("parsing", () => {
  it("reads sizes in bytes, binary and decimal units, case-insensitively", () => {
    expect(parseSize("1")).toBe(1);
    expect(parseSize("1048576")).toBe(2 ** 20);
    expect(parseSize("256MiB")).toBe(256 * 2 ** 20);
    expect(parseSize("256m")).toBe(256 * 2 ** 20);
    expect(parseSize("1GB")).toBe(1e9);
    expect(parseSize("1.5 GiB")).toBe(1.5 * 2 ** 30);
    expect(parseSize("2kb")).toBe(2000);
    for (const bad of ["", "0", "-1", "1.5", "1 XB", "MiB", "1e9", "0.5B", "99999999999TB"]) expect(parseSize(bad), bad).toBeUndefined();
  });

  it("reads durations in ms, s, m, h (plain numbers are seconds); 0 is none", () => {
    expect(parseDuration("500ms")).toBe(500);
    expect(parseDuration("30s")).toBe(30_000);
    expect(parseDuration("30")).toBe(30_000);
    expect(parseDuration("2m")).toBe(120_000);
    expect(parseDuration("1h")).toBe(3_600_000);
    expect(parseDuration("0")).toBe(Number.POSITIVE_INFINITY);
    expect(parseDuration("1ms")).toBe(1);
    for (const bad of ["", "-1s", "0.5ms", "1d", "s", "30 sec", "600h"]) expect(parseDuration(bad), bad).toBeUndefined();
  });

  it("reads ratios of at least 1; 0 is none", () => {
    expect(parseRatio("1")).toBe(1);
    expect(parseRatio("1000")).toBe(1000);
    expect(parseRatio("2.5")).toBe(2.5);
    expect(parseRatio("0")).toBe(Number.POSITIVE_INFINITY);
    for (const bad of ["0.5", "-3", "x", "", "Infinity"]) expect(parseRatio(bad), bad).toBeUndefined();
  });

  it("takes the flag over the environment variable over the default, and names the source of a bad value", () => {
    const saved = { ...process.env };
    try {
      delete process.env.ZARR_MAX_CHUNK_BYTES;
      delete process.env.ZARR_TIMEOUT;
      expect(readLimits("get", {})).toEqual(DEFAULT_READ_LIMITS);
      process.env.ZARR_MAX_CHUNK_BYTES = "1MiB";
      process.env.ZARR_TIMEOUT = "5s";
      expect(readLimits("get", {})).toMatchObject({ maxChunkBytes: 2 ** 20, timeoutMs: 5000 });
      expect(readLimits("get", { "max-chunk-bytes": "2MiB", timeout: "0" })).toMatchObject({ maxChunkBytes: 2 ** 21, timeoutMs: Number.POSITIVE_INFINITY });
      process.env.ZARR_MAX_CHUNK_BYTES = "lots";
      expect(() => readLimits("get", {})).toThrow(UsageError);
      expect(() => readLimits("get", {})).toThrow('ZARR_MAX_CHUNK_BYTES (environment) must be a size in bytes (e.g. 1048576, 256MiB, 1GB), got "lots"');
      delete process.env.ZARR_MAX_CHUNK_BYTES;
      expect(() => readLimits("get", { "max-ratio": "0.1" })).toThrow(/--max-ratio must be a number of at least 1/);
    } finally {
      process.env = saved;
    }
  });

  it("states the defaults it applies in the help texts", () => {
    const d = DEFAULT_READ_LIMITS;
    const general = /--max-chunk-bytes N[\s\S]*?default (\S+?)[:;)][\s\S]*--max-value-bytes N[\s\S]*?default (\S+?)\)[\s\S]*--timeout T[\s\S]*?default (\S+?);[\s\S]*--max-ratio R[\s\S]*?default (\S+?);/.exec(GENERAL_USAGE);
    expect(general).not.toBeNull();
    const [, chunk, value, timeout, ratio] = general as RegExpExecArray;
    expect([parseSize(chunk), parseSize(value), parseDuration(timeout), parseRatio(ratio)]).toEqual([d.maxChunkBytes, d.maxValueBytes, d.timeoutMs, d.maxDecodeRatio]);
    for (const [command, usage] of Object.entries(USAGE)) {
      const line = /--max-chunk-bytes N \((\S+)\),\s+--max-value-bytes N \((\S+)\), --timeout T \((\S+) without a byte\), --max-ratio R \((\S+)\)/.exec(usage);
      expect(line, command).not.toBeNull();
      const [, c, v, t, r] = line as RegExpExecArray;
      expect([parseSize(c), parseSize(v), parseDuration(t), parseRatio(r)], command).toEqual([d.maxChunkBytes, d.maxValueBytes, d.timeoutMs, d.maxDecodeRatio]);
    }
  });

  it("gives each remote store the settings it understands", () => {
    const limits = { ...DEFAULT_READ_LIMITS, timeoutMs: 5000 };
    expect(storeLimitSettings("https", limits)).toEqual({ maxValueBytes: 2 ** 30, idleTimeout: 5000, timeout: 0 });
    expect(storeLimitSettings("s3", limits)).toEqual({ maxValueBytes: 2 ** 30, clientConfig: { requestHandler: { socketTimeout: 5000, connectionTimeout: 5000 } } });
    expect(storeLimitSettings("gs", limits)).toEqual({ maxValueBytes: 2 ** 30, timeout: 5000 });
    expect(storeLimitSettings("s3", { ...limits, timeoutMs: Number.POSITIVE_INFINITY })).toEqual({ maxValueBytes: 2 ** 30 });
    expect(storeLimitSettings("file", limits)).toEqual({});
  });
});

const dir = mkdtempSync(path.join(os.tmpdir(), "zarr-limits-"));

/**
 * A zstd frame that decodes to `count` (a uint32) then `zeroBlocks` × 128 KiB of zeros: one
 * raw block, then RLE blocks of 4 bytes each, and no declared content size, so a decoder
 * learns the size only by decoding (1 GiB from 32 KB with 8192 blocks).
 */
function zstdBomb(count: number, zeroBlocks: number): Uint8Array {
  const BLOCK = 128 * 1024;
  const out = new Uint8Array(4 + 2 + 3 + 4 + zeroBlocks * 4);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0xfd2fb528, true); // magic
  out[4] = 0x00; // frame header: no content size, no checksum, a window descriptor follows
  out[5] = 0x58; // window 2^21 bytes
  let at = 6;
  const blockHeader = (size: number, type: number, last: boolean) => {
    const h = (size << 3) | (type << 1) | (last ? 1 : 0);
    out[at++] = h & 0xff;
    out[at++] = (h >> 8) & 0xff;
    out[at++] = (h >> 16) & 0xff;
  };
  blockHeader(4, 0, false); // raw: the item count
  view.setUint32(at, count, true);
  at += 4;
  for (let i = 0; i < zeroBlocks; i++) {
    blockHeader(BLOCK, 1, i === zeroBlocks - 1); // RLE
    out[at++] = 0;
  }
  return out;
}

/** A one-chunk array at `dir/name` whose chunk `c/0` holds `chunk`. */
function writeArray(name: string, metadata: object, chunk: Uint8Array): string {
  const at = path.join(dir, name);
  mkdirSync(path.join(at, "c"), { recursive: true });
  writeFileSync(path.join(at, "zarr.json"), JSON.stringify({ zarr_format: 3, node_type: "array", chunk_key_encoding: { name: "default" }, ...metadata }));
  writeFileSync(path.join(at, "c", "0"), chunk);
  return at;
}

describe("zarr get with limits", () => {
  it("stops a 33 KB zstd bomb of a string chunk (1 GiB decoded) in well under the time of decoding it", async () => {
    const bomb = zstdBomb(10, 8192); // ten items, then 1 GiB of zeros
    expect(bomb.length).toBeLessThan(33_000);
    const at = writeArray(
      "bomb",
      { shape: [10], data_type: "string", chunk_grid: { name: "regular", configuration: { chunk_shape: [10] } }, fill_value: "", codecs: [{ name: "vlen-utf8" }, { name: "zstd", configuration: { level: 3 } }] },
      bomb,
    );
    const started = performance.now();
    const r = await zarr(["get", at, "-o", "/dev/null"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/\[CODEC_FAILED\] .*"c\/0".*maxDecodeRatio 1000.*--max-ratio/);
    // The whole process, start-up included (64 MiB, not 1 GiB, is decoded): 10-15 s before, on
    // this shared machine; about 1 s now (generous for a loaded CPU).
    expect(performance.now() - started).toBeLessThan(8000);
    // --max-ratio and ZARR_MAX_RATIO reach the array: the ratio named in the message follows them
    // (both keep the bound at the 64 MiB floor for these 32 KB).
    const r2 = await zarr(["get", at, "-o", "/dev/null"], { env: { ZARR_MAX_RATIO: "2000" } });
    expect(r2.stderr).toMatch(/maxDecodeRatio 2000/);
    const r3 = await zarr(["get", at, "-o", "/dev/null", "--max-ratio", "1500"], { env: { ZARR_MAX_RATIO: "2000" } });
    expect(r3.stderr).toMatch(/maxDecodeRatio 1500/);
  });

  it("refuses a chunk larger than --max-chunk-bytes (or ZARR_MAX_CHUNK_BYTES) and reads one of exactly that size", async () => {
    const values = new Float64Array(2 ** 17).fill(1.5); // 1 MiB
    const at = writeArray(
      "mib",
      { shape: [2 ** 17], data_type: "float64", chunk_grid: { name: "regular", configuration: { chunk_shape: [2 ** 17] } }, fill_value: 0, codecs: [{ name: "bytes", configuration: { endian: "little" } }] },
      new Uint8Array(values.buffer),
    );
    expect((await zarr(["get", at, "-o", "/dev/null", "--max-chunk-bytes", "1MiB"])).code).toBe(0);
    const over = await zarr(["get", at, "-o", "/dev/null", "--max-chunk-bytes", "1048575"]);
    expect(over.code).toBe(1);
    expect(over.stderr).toMatch(/\[UNSUPPORTED\] .*1048576 bytes decoded, more than maxChunkBytes \(1048575\)/);
    expect((await zarr(["get", at, "-o", "/dev/null"], { env: { ZARR_MAX_CHUNK_BYTES: "1000KiB" } })).code).toBe(1);
    expect((await zarr(["get", at, "-o", "/dev/null", "--max-chunk-bytes", "1MiB"], { env: { ZARR_MAX_CHUNK_BYTES: "1000KiB" } })).code).toBe(0);
  });

  it("exits 2 with a usage error naming the flag or the variable for a bad value", async () => {
    const bad = await zarr(["info", dir, "--timeout", "soon"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('zarr: --timeout must be a duration (e.g. 500ms, 30s, 2m; 0: none), got "soon"');
    const env = await zarr(["tree", dir], { env: { ZARR_MAX_VALUE_BYTES: "-1" } });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain("ZARR_MAX_VALUE_BYTES (environment) must be a size in bytes");
  });
});

describe("remote stores under the limits", () => {
  let server: Server;
  let base: string;
  const arrayJson = JSON.stringify({
    zarr_format: 3,
    node_type: "array",
    shape: [4],
    data_type: "uint8",
    chunk_grid: { name: "regular", configuration: { chunk_shape: [4] } },
    chunk_key_encoding: { name: "default" },
    fill_value: 0,
    codecs: [{ name: "bytes" }],
  });

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url?.endsWith("/zarr.json")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(arrayJson);
        return;
      }
      if (req.url === "/endless/c/0") {
        // A chunk key with no end to its body.
        res.writeHead(200);
        const piece = new Uint8Array(64 * 1024);
        const pump = () => {
          while (res.write(piece)) {}
        };
        res.on("drain", pump);
        pump();
        return;
      }
      // S3 (path-style, anonymous): /BUCKET/KEY?x-id=GetObject.
      if (req.url?.startsWith("/bkt/arr/zarr.json")) {
        res.writeHead(200, { "content-length": Buffer.byteLength(arrayJson) });
        res.end(arrayJson);
        return;
      }
      if (req.url === "/stalled/c/0" || req.url?.startsWith("/bkt/arr/c/0")) {
        res.writeHead(200, { "content-length": "4" });
        res.write(new Uint8Array([1])); // and nothing more
        return;
      }
      res.writeHead(404);
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it("cuts an endless body off at --max-value-bytes with STORE_TOO_LARGE", async () => {
    const started = performance.now();
    const r = await zarr(["get", `${base}/endless`, "--max-value-bytes", "4MiB"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/\[STORE_TOO_LARGE\] .*"c\/0"/);
    expect(r.stderr).toContain("4194304");
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it("fails a stalled body after --timeout (ZARR_TIMEOUT), once, instead of after minutes", async () => {
    for (const [args, env, ms] of [
      [["--timeout", "700ms"], {}, "700"],
      [[], { ZARR_TIMEOUT: "0.8s" }, "800"],
    ] as const) {
      const started = performance.now();
      const r = await zarr(["get", `${base}/stalled`, ...args], { env });
      const took = performance.now() - started;
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`\\[STORE_FAILED\\] .*"c/0".* stalled: no bytes arrived for ${ms} ms`));
      expect(took).toBeGreaterThanOrEqual(Number(ms));
      expect(took).toBeLessThan(6000);
    }
  });

  it("fails a stalled S3 body after --timeout, through the SDK's socket inactivity limit", async () => {
    const started = performance.now();
    const r = await zarr(["get", `s3://bkt/arr?endpoint=${base}&anonymous=true`, "--timeout", "700ms"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/\[STORE_FAILED\] .*"c\/0".*timed out after 700 ms of inactivity/);
    expect(performance.now() - started).toBeLessThan(8000);
  });
});
