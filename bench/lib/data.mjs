// The bench data, generated once and cached under $ZARR_BENCH_DATA or <tmpdir>/zarr-bench,
// keyed by its parameters (delete the directory to regenerate):
//
//   readData({ n, c, variant })   an n×n float32 array in c×c chunks, one codec: a Zarr v2
//                                 copy written by zarr-python (numcodecs' C libraries) and a
//                                 Zarr v3 copy whose chunk files are hard links to the same bytes
//                                 (without Python: written by @zarr, v3 only)
//   shardedData({ n, c, per })    the zstd array of readData as a sharded v3 array (per×per inner
//                                 chunks of c×c in each shard), assembled from the same chunk bytes
//   hierarchyData({ groups, arrays })
//                                 a wide Zarr v2 hierarchy (groups × arrays small arrays), plain and
//                                 consolidated, written by zarr-python (without it, by this module)
//   smallChunkData({ n, c, variant })
//                                 a Zarr v2 array written by zarr-python (without Python: by
//                                 this module, same layout; raw and gzip only)
//
// Values: sin(i * 0.001) * 100 + (i % n) * 0.01 as float32 (i: the C-order element index),
// the same in bench/lib/zarr_python.py.
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { LIB, PYTHON, pythonZarr } from "./common.mjs";

/** Bumped when the generated data changes, so stale caches are not reused. */
const DATA_VERSION = 1;

/** The encodings of the read benchmarks: numcodecs compressor config (v2) and the equivalent v3 codec chain. */
export const VARIANTS = [
  { name: "uncompressed", v2: null, v3: [] },
  { name: "gzip", v2: { id: "gzip", level: 1 }, v3: [{ name: "gzip", configuration: { level: 1 } }] },
  { name: "zlib", v2: { id: "zlib", level: 1 }, v3: [{ name: "numcodecs.zlib", configuration: { level: 1 } }] },
  { name: "zstd", v2: { id: "zstd", level: 1 }, v3: [{ name: "zstd", configuration: { level: 1, checksum: false } }] },
  {
    name: "blosc-lz4-shuffle",
    v2: { id: "blosc", cname: "lz4", clevel: 5, shuffle: 1, blocksize: 0 },
    v3: [{ name: "blosc", configuration: { cname: "lz4", clevel: 5, shuffle: "shuffle", typesize: 4, blocksize: 0 } }],
  },
  {
    name: "blosc-zstd-bitshuffle",
    v2: { id: "blosc", cname: "zstd", clevel: 5, shuffle: 2, blocksize: 0 },
    v3: [{ name: "blosc", configuration: { cname: "zstd", clevel: 5, shuffle: "bitshuffle", typesize: 4, blocksize: 0 } }],
  },
];

/** `VARIANTS` by name; throws on an unknown one. */
export function variant(name) {
  const v = VARIANTS.find((x) => x.name === name);
  if (v === undefined) throw new Error(`unknown variant ${JSON.stringify(name)} (have ${VARIANTS.map((x) => x.name).join(", ")})`);
  return v;
}

/** `VARIANTS` picked by `--only a,b` (all when `only` is undefined), checked. */
export function pickVariants(only, from = VARIANTS) {
  if (only === undefined) return from;
  return only.map((name) => {
    const v = from.find((x) => x.name === name);
    if (v === undefined) throw new Error(`unknown variant ${JSON.stringify(name)} (have ${from.map((x) => x.name).join(", ")})`);
    return v;
  });
}

/** The full v3 codec chain of a variant. */
export const v3Codecs = (v) => [{ name: "bytes", configuration: { endian: "little" } }, ...v.v3];

/** The bench values, n×n float32 in C order. */
export function benchValues(n) {
  const values = new Float32Array(n * n);
  for (let i = 0; i < values.length; i++) values[i] = Math.sin(i * 0.001) * 100 + (i % n) * 0.01;
  return values;
}

/** Chunk (row, col) of the n×n bench array in c×c chunks, as float32 bytes. */
export function benchChunk(n, c, row, col) {
  const values = new Float32Array(c * c);
  for (let y = 0; y < c; y++) {
    const base = (row * c + y) * n + col * c;
    for (let x = 0; x < c; x++) {
      const i = base + x;
      values[y * c + x] = Math.sin(i * 0.001) * 100 + (i % n) * 0.01;
    }
  }
  return new Uint8Array(values.buffer);
}

/** Where the cached data lives. */
export function dataRoot() {
  return process.env.ZARR_BENCH_DATA ?? join(tmpdir(), "zarr-bench");
}

/**
 * The cached directory `key` (under dataRoot()), made by `make(dir)` when missing: into a
 * private temporary directory first, renamed when complete, so an interrupted or concurrent
 * run never leaves (or sees) half-written data.
 */
async function cached(key, make) {
  const dir = join(dataRoot(), `v${DATA_VERSION}`, key);
  if (existsSync(dir)) return dir;
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  try {
    await make(tmp);
    try {
      renameSync(tmp, dir);
    } catch (error) {
      if (!existsSync(dir)) throw error; // else another run made it first
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return dir;
}

/**
 * The cached directory holding readData's `{ n, c, variant }` (with zarr-python) as a
 * `{ root, path }` pair (path relative to root, to v3.zarr), or null when it was not made yet.
 */
export function cachedReadData({ n, c, variant: v }) {
  const root = join(dataRoot(), `v${DATA_VERSION}`);
  const path = `read-n${n}-c${c}-${v.name}/v3.zarr`;
  return existsSync(join(root, path, "zarr.json")) ? { root, path } : null;
}

/** Hard-links (or copies, across devices) a file. */
function link(from, to) {
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

/** The v3 metadata (zarr.json) of an n×n float32 array. */
function v3Metadata(n, chunk, codecs) {
  return {
    zarr_format: 3,
    node_type: "array",
    shape: [n, n],
    data_type: "float32",
    chunk_grid: { name: "regular", configuration: { chunk_shape: [chunk, chunk] } },
    chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
    fill_value: 0,
    codecs,
    attributes: {},
  };
}

/** Writes a v2 array with zarr-python. */
function pythonWrite(path, n, c, compressor) {
  execFileSync(PYTHON, [join(LIB, "zarr_python.py"), "write", path, String(n), String(c), JSON.stringify(compressor)], {
    stdio: ["ignore", "ignore", "pipe"],
  });
}

/**
 * The read benchmarks' array in one encoding: `{ v2, v3, writer }`, v2 null when written
 * without zarr-python.
 */
export async function readData({ n, c, variant: v }) {
  const python = pythonZarr().ok;
  const dir = await cached(`read-n${n}-c${c}-${v.name}${python ? "" : "-nopython"}`, async (tmp) => {
    const v3 = join(tmp, "v3.zarr");
    if (!python) {
      // @zarr writes it (its zstd encoder is TypeScript: slow at full size, but it works).
      const { createArray, set, FileSystemStore } = await import("@zarr/all");
      const arr = await createArray(new FileSystemStore(v3), "", {
        shape: [n, n],
        chunkShape: [c, c],
        dataType: "float32",
        fillValue: 0,
        codecs: v3Codecs(v),
      });
      await set(arr, null, benchValues(n));
      return;
    }
    const v2 = join(tmp, "v2.zarr");
    pythonWrite(v2, n, c, v.v2);
    mkdirSync(join(v3, "c"), { recursive: true });
    writeFileSync(join(v3, "zarr.json"), JSON.stringify(v3Metadata(n, c, v3Codecs(v))));
    for (const name of readdirSync(v2)) {
      if (name.startsWith(".")) continue;
      const [i, j] = name.split(".");
      mkdirSync(join(v3, "c", i), { recursive: true });
      link(join(v2, name), join(v3, "c", i, j)); // byte-identical chunk files
    }
  });
  const v2 = join(dir, "v2.zarr");
  return { v2: existsSync(v2) ? v2 : null, v3: join(dir, "v3.zarr"), writer: python ? "zarr-python" : "@zarr" };
}

/** CRC-32C (Castagnoli), for the shard index checksum. */
const CRC32C_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    t[i] = c >>> 0;
  }
  return t;
})();
export function crc32c(bytes) {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC32C_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * The zstd array of `readData({ n, c })` stored sharded: shards of (per·c)×(per·c) holding
 * per×per inner chunks of c×c (sharding_indexed, inner codecs bytes + zstd, index at the
 * end with bytes + crc32c), built from the very same compressed chunk bytes.
 * Returns `{ sharded, unsharded }` (v3 paths).
 */
export async function shardedData({ n, c, per = 4 }) {
  const zstd = variant("zstd");
  const { v3: unsharded } = await readData({ n, c, variant: zstd });
  const dir = await cached(`sharded-n${n}-c${c}-per${per}${pythonZarr().ok ? "" : "-nopython"}`, async (tmp) => {
    const out = join(tmp, "sharded.zarr");
    const shard = c * per;
    const innerGrid = Math.ceil(n / c);
    const shardGrid = Math.ceil(n / shard);
    mkdirSync(out, { recursive: true });
    writeFileSync(
      join(out, "zarr.json"),
      JSON.stringify(
        v3Metadata(n, shard, [
          {
            name: "sharding_indexed",
            configuration: {
              chunk_shape: [c, c],
              codecs: v3Codecs(zstd),
              index_codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "crc32c" }],
              index_location: "end",
            },
          },
        ]),
      ),
    );
    for (let si = 0; si < shardGrid; si++) {
      for (let sj = 0; sj < shardGrid; sj++) {
        const parts = [];
        const index = new DataView(new ArrayBuffer(per * per * 16));
        let offset = 0;
        for (let a = 0; a < per; a++) {
          for (let b = 0; b < per; b++) {
            const [i, j] = [si * per + a, sj * per + b];
            const k = (a * per + b) * 16;
            const file = join(unsharded, "c", String(i), String(j));
            if (i >= innerGrid || j >= innerGrid || !existsSync(file)) {
              index.setBigUint64(k, 0xffffffffffffffffn, true);
              index.setBigUint64(k + 8, 0xffffffffffffffffn, true);
              continue;
            }
            const bytes = readFileSync(file);
            index.setBigUint64(k, BigInt(offset), true);
            index.setBigUint64(k + 8, BigInt(bytes.length), true);
            parts.push(bytes);
            offset += bytes.length;
          }
        }
        const indexBytes = new Uint8Array(index.buffer);
        const checksum = Buffer.alloc(4);
        checksum.writeUInt32LE(crc32c(indexBytes));
        mkdirSync(join(out, "c", String(si)), { recursive: true });
        writeFileSync(join(out, "c", String(si), String(sj)), Buffer.concat([...parts, indexBytes, checksum]));
      }
    }
  });
  return { sharded: join(dir, "sharded.zarr"), unsharded };
}

/** The encodings of small-chunks.mjs (Zarr v2). */
export const SMALL_VARIANTS = [
  { name: "raw", v2: null },
  { name: "gzip", v2: { id: "gzip", level: 1 } },
];

/**
 * A Zarr v2 array of n×n float32 in c×c chunks, written by zarr-python 2.13; without it,
 * written here in the same layout (`.zarray` + "i.j" chunk files; raw or gzip via node:zlib).
 * Returns `{ path, writer }`.
 */
export async function smallChunkData({ n, c, variant: v }) {
  const python = pythonZarr().ok;
  const dir = await cached(`small-n${n}-c${c}-${v.name}${python ? "" : "-nopython"}`, async (tmp) => {
    const path = join(tmp, "v2.zarr");
    if (python) {
      pythonWrite(path, n, c, v.v2);
      return;
    }
    if (v.v2 !== null && v.v2.id !== "gzip") throw new Error(`cannot write ${v.name} without zarr-python`);
    mkdirSync(path, { recursive: true });
    writeFileSync(
      join(path, ".zarray"),
      JSON.stringify({
        zarr_format: 2,
        shape: [n, n],
        chunks: [c, c],
        dtype: "<f4",
        compressor: v.v2,
        fill_value: 0,
        filters: null,
        order: "C",
      }),
    );
    const values = benchValues(n);
    const grid = Math.ceil(n / c);
    const chunk = new Float32Array(c * c);
    for (let i = 0; i < grid; i++) {
      for (let j = 0; j < grid; j++) {
        chunk.fill(0);
        for (let r = 0; r < c && i * c + r < n; r++) {
          const start = (i * c + r) * n + j * c;
          chunk.set(values.subarray(start, Math.min(start + c, (i * c + r + 1) * n)), r * c);
        }
        const bytes = new Uint8Array(chunk.buffer);
        writeFileSync(join(path, `${i}.${j}`), v.v2 === null ? bytes : gzipSync(bytes, { level: v.v2.level }));
      }
    }
  });
  return { path: join(dir, "v2.zarr"), writer: python ? "zarr-python" : "bench/lib/data.mjs (no zarr-python)" };
}

/** Writes a Zarr v2 document as zarr-python 2 does (indented by 4). */
function writeV2Doc(path, doc) {
  writeFileSync(path, `${JSON.stringify(doc, null, 4)}\n`);
}

/**
 * The hierarchy of tree.mjs written here, for machines without zarr-python: the layout
 * zarr-python writes (`.zgroup`s, arrays of 10 float32 in one uncompressed chunk `0`),
 * `.zmetadata` at the root when `consolidated`.
 */
function writeHierarchy(path, groups, arrays, consolidated) {
  const zgroup = { zarr_format: 2 };
  const zarray = { chunks: [10], compressor: null, dtype: "<f4", fill_value: 0, filters: null, order: "C", shape: [10], zarr_format: 2 };
  const chunk = new Uint8Array(new Float32Array(10).map((_, i) => i).buffer);
  const metadata = { ".zgroup": zgroup };
  mkdirSync(path, { recursive: true });
  writeV2Doc(join(path, ".zgroup"), zgroup);
  for (let g = 0; g < groups; g++) {
    const group = `g${String(g).padStart(3, "0")}`;
    mkdirSync(join(path, group));
    writeV2Doc(join(path, group, ".zgroup"), zgroup);
    metadata[`${group}/.zgroup`] = zgroup;
    for (let a = 0; a < arrays; a++) {
      const array = `${group}/a${String(a).padStart(3, "0")}`;
      mkdirSync(join(path, array));
      writeV2Doc(join(path, array, ".zarray"), zarray);
      writeFileSync(join(path, array, "0"), chunk);
      metadata[`${array}/.zarray`] = zarray;
    }
  }
  if (consolidated) writeV2Doc(join(path, ".zmetadata"), { metadata, zarr_consolidated_format: 1 });
}

/**
 * A wide Zarr v2 hierarchy for tree.mjs: `groups` groups of `arrays` small arrays each
 * (1 + groups × (1 + arrays) nodes), written by zarr-python 2.13 (without it, by
 * `writeHierarchy` in the same layout), once plain and once with `.zmetadata`
 * (`zarr.consolidate_metadata`). Returns `{ plain, consolidated, writer }`.
 */
export async function hierarchyData({ groups, arrays }) {
  const python = pythonZarr().ok;
  const dir = await cached(`tree-g${groups}-a${arrays}${python ? "" : "-nopython"}`, async (tmp) => {
    for (const consolidated of [false, true]) {
      const path = join(tmp, consolidated ? "consolidated.zarr" : "plain.zarr");
      if (!python) writeHierarchy(path, groups, arrays, consolidated);
      else {
        const args = [join(LIB, "zarr_python.py"), "write-hierarchy", path, String(groups), String(arrays)];
        execFileSync(PYTHON, consolidated ? [...args, "consolidated"] : args, { stdio: ["ignore", "ignore", "pipe"] });
      }
    }
  });
  return {
    plain: join(dir, "plain.zarr"),
    consolidated: join(dir, "consolidated.zarr"),
    writer: python ? "zarr-python" : "bench/lib/data.mjs (no zarr-python)",
  };
}
