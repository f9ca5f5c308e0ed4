#!/usr/bin/env node
// The blosc and LZ4 WebAssembly kernels against the TypeScript code they stand in for, on one
// thread, on the bench data (bench/lib/data.mjs: the chunks zarr-python wrote for the
// blosc-lz4-shuffle and blosc-zstd-bitshuffle arrays).
//
// Kernel speed: each kernel on data already in its memory (no copies) against the TypeScript
// function on the same bytes: byte and bit (un)shuffle of 4-byte elements block by block (the
// chunks' own block sizes), LZ4 block decode and encode (of a chunk's bytes byte-shuffled, what
// blosc-lz4 compresses). Whole chunks: bloscDecompress into a kept buffer and bloscCompress
// with the array's settings, kernels on against off (setWasmKernels), copies included.
//
//   node bench/kernels-blosc.mjs            8192² array, 512² chunks: 8 chunks, median of 9
//   node bench/kernels-blosc.mjs --quick    1024², 256² chunks, median of 3
//   options: --reps N  --chunks K  --size N --chunk C  --json FILE
//
// Targets (WASM speed / TypeScript speed): byte unshuffle ≥ 4×, bit unshuffle ≥ 3×, LZ4
// decode ≥ 1.5×. Times are CPU time of this process (user + system), so other load on a shared
// machine matters less; each figure is the median of the runs, WASM and TypeScript taking turns.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CPUS, MiB, main, parseArgs, REPO, reps, requireBuilt, size } from "./lib/common.mjs";
import { readData, variant } from "./lib/data.mjs";
import { median } from "./lib/measure.mjs";
import { Report, ratio } from "./lib/output.mjs";

const dist = (pkg, file) => import(join(REPO, "packages", pkg, "dist", file));

await main(async () => {
  requireBuilt();
  const args = parseArgs();
  const { n, c } = size(args, { n: 8192, c: 512 }, { n: 1024, c: 256 });
  const REPS = reps(args, 9, 3);
  const CHUNKS = args.number("--chunks", 8);
  const { setWasmKernels } = await dist("spec", "index.js");
  const { bloscCompress, bloscDecompress, readBloscHeader, byteShuffle, byteUnshuffle, bitShuffle, bitUnshuffle } = await dist(
    "codec-blosc",
    "index.js",
  );
  const { bloscKernel } = await dist("codec-blosc", "blosc-kernel.js");
  const { lz4Kernel } = await dist("codec-lz4", "lz4-kernel.js");
  const { lz4CompressBlock, lz4CompressBlockInto, lz4CompressBound, lz4DecompressBlockInto } = await dist("codec-lz4", "index.js");

  const report = new Report({ script: "kernels-blosc.mjs", title: "blosc and LZ4 WebAssembly kernels against TypeScript (one thread)", args });
  report.line(`${n}×${n} float32 array in ${c}×${c} chunks (zarr-python's chunk files); ${CHUNKS} chunks; median of ${REPS} runs, taking turns; CPU time; ${CPUS} CPUs, shared`);

  /** The first `CHUNKS` chunk files of a bench array. */
  const chunksOf = async (name) => {
    const { v3 } = await readData({ n, c, variant: variant(name) });
    const files = [];
    for (const i of readdirSync(join(v3, "c")).sort((a, b) => a - b)) {
      for (const j of readdirSync(join(v3, "c", i)).sort((a, b) => a - b)) files.push(join(v3, "c", i, j));
    }
    return files.slice(0, CHUNKS).map((f) => new Uint8Array(readFileSync(f)));
  };
  const lz4Chunks = await chunksOf("blosc-lz4-shuffle");
  const zstdChunks = await chunksOf("blosc-zstd-bitshuffle");
  const values = lz4Chunks.map((chunk) => bloscDecompress(chunk));
  const bytes = values.reduce((s, v) => s + v.length, 0);

  /** CPU seconds of `fn()` repeated until it took at least 50 ms (per call). */
  const cpuPerCall = (fn) => {
    let calls = 0;
    const t0 = process.cpuUsage();
    let used = 0;
    do {
      fn();
      calls++;
      const d = process.cpuUsage(t0);
      used = (d.user + d.system) / 1e6;
    } while (used < 0.05);
    return used / calls;
  };
  /** Median CPU seconds per call of the WASM and the TypeScript version, taking turns. */
  const race = (wasm, ts) => {
    wasm();
    ts(); // warm up: compile, grow memory
    const w = [];
    const t = [];
    for (let r = 0; r < REPS; r++) {
      w.push(cpuPerCall(wasm));
      t.push(cpuPerCall(ts));
    }
    return { wasm: median(w), ts: median(t) };
  };
  const rows = [];
  const add = (name, data, { wasm, ts }, target) => {
    rows.push([name, `${(data / MiB).toFixed(1)} MiB`, `${(data / MiB / wasm).toFixed(0)}`, `${(data / MiB / ts).toFixed(0)}`, ratio(ts / wasm), target ?? ""]);
    if (target !== undefined) report.target({ name: `${name}: WASM / TypeScript speed`, value: ts / wasm, op: "≥", limit: Number(target.slice(1, -1)) });
  };

  // Kernels on data in their memory. One region holds the input, the next the output.
  const one = values[0];
  const size1 = one.length;
  const kernel = bloscKernel(4 * size1);
  const memory = kernel.reserve(4 * size1);
  const src = kernel.base;
  const dst = kernel.base + 2 * size1;
  const filterCase = (name, chunk, mode, target) => {
    const { blocksize } = readBloscHeader(chunk);
    const shuffled = new Uint8Array(size1);
    const back = new Uint8Array(size1);
    const forward = mode === 1 ? byteShuffle : bitShuffle;
    const inverse = mode === 1 ? byteUnshuffle : bitUnshuffle;
    for (let b = 0; b < size1; b += blocksize) forward(one, b, shuffled, b, Math.min(blocksize, size1 - b), 4);
    const tsBlocks = (f, from, to) => () => {
      for (let b = 0; b < size1; b += blocksize) f(from, b, to, b, Math.min(blocksize, size1 - b), 4);
    };
    memory.set(one, src);
    add(`${name} shuffle (4-byte)`, size1, race(() => kernel.exports.shuffle_chunk(src, dst, size1, blocksize, 4, mode), tsBlocks(forward, one, back)));
    memory.set(shuffled, src);
    const flags = mode === 1 ? 0x01 : 0x04;
    add(`${name} unshuffle (4-byte)`, size1, race(() => kernel.exports.unshuffle_chunk(src, dst, size1, blocksize, 4, flags), tsBlocks(inverse, shuffled, back)), target);
    if (!Buffer.from(memory.subarray(dst, dst + size1)).equals(one)) throw new Error(`${name}: the kernel's unshuffle differs`);
  };
  filterCase("byte", lz4Chunks[0], 1, "≥4×");
  filterCase("bit", zstdChunks[0], 2, "≥3×");

  // LZ4 blocks: a chunk's bytes byte-shuffled (what blosc-lz4 compresses), at blosc's clevel 5.
  const plain = new Uint8Array(size1);
  byteShuffle(one, 0, plain, 0, size1, 4);
  const block = lz4CompressBlock(plain, 5);
  const lz4 = lz4Kernel(size1 + 2 * lz4CompressBound(size1) + 64);
  const lz4Memory = lz4.reserve(size1 + 2 * lz4CompressBound(size1) + 64);
  const inAt = lz4.base;
  const outAt = (inAt + lz4CompressBound(size1) + 15) & ~15;
  const out = new Uint8Array(size1);
  lz4Memory.set(block, inAt);
  add("LZ4 decode", size1, race(() => lz4.exports.lz4_decode(inAt, block.length, outAt, size1), () => lz4DecompressBlockInto(block, out, 0, size1)), "≥1.5×");
  if (!Buffer.from(lz4Memory.subarray(outAt, outAt + size1)).equals(plain)) throw new Error("LZ4 decode: the kernel's output differs");
  lz4Memory.set(plain, inAt);
  const encoded = new Uint8Array(lz4CompressBound(size1));
  add("LZ4 encode", size1, race(() => lz4.exports.lz4_encode(inAt, size1, outAt, lz4CompressBound(size1), 5), () => lz4CompressBlockInto(plain, encoded, 0, encoded.length, 5)));
  report.table(
    "Kernels, data in place (one 1 MiB chunk's bytes; block sizes of the chunk files)",
    ["kernel", "data", "WASM MiB/s", "TypeScript MiB/s", "speed-up", "target"],
    rows.splice(0),
    ["l", "r", "r", "r", "r", "l"],
  );

  // Whole chunks, through the codec: kernels on against off.
  const kept = new Uint8Array(size1);
  const paths = (fn) => {
    const run = (on) => () => {
      setWasmKernels(on);
      fn();
    };
    const r = race(run(true), run(false));
    setWasmKernels(true);
    return r;
  };
  const decodeAll = (chunks) => () => {
    for (const chunk of chunks) bloscDecompress(chunk, "c", kept);
  };
  add("blosc-lz4-shuffle decode", bytes, paths(decodeAll(lz4Chunks)));
  add("blosc-zstd-bitshuffle decode", bytes, paths(decodeAll(zstdChunks)));
  const encodeAll = (chunks, options) => () => {
    for (const v of chunks) bloscCompress(v, options);
  };
  add("blosc-lz4-shuffle encode", bytes, paths(encodeAll(values, { cname: "lz4", clevel: 5, shuffle: "shuffle", typesize: 4 })));
  // zstd's TypeScript encoder at blosc's clevel 5 (zstd level 9) takes seconds per chunk: two chunks.
  const zstdValues = values.slice(0, 2);
  add(
    "blosc-zstd-bitshuffle encode",
    zstdValues.reduce((s, v) => s + v.length, 0),
    paths(encodeAll(zstdValues, { cname: "zstd", clevel: 5, shuffle: "bitshuffle", typesize: 4 })),
  );
  report.table(
    "Whole chunks (bloscDecompress into a kept buffer, bloscCompress), kernels on / off",
    ["operation", "data", "WASM MiB/s", "TypeScript MiB/s", "speed-up", ""],
    rows,
    ["l", "r", "r", "r", "r", "l"],
  );

  // blosc-zstd: the streams decoded by @zarr/codec-zstd (its WebAssembly decoder, kernels being
  // on here) straight into the blosc kernel's memory (what the codec does), against decoded into
  // a JavaScript buffer and copied in (the other choice). With kernels on, each stream is copied
  // into the zstd kernel's memory and its output copied out into the blosc kernel's.
  const noFilter = zstdChunks.map((chunk) => {
    const copy = chunk.slice();
    copy[2] &= ~0x05; // the same streams, no filter: bloscDecompress leaves them shuffled
    return copy;
  });
  const { blocksize: zstdBlock } = readBloscHeader(zstdChunks[0]);
  const copyIn = () => {
    for (const chunk of noFilter) {
      const shuffled = bloscDecompress(chunk, "c", kept);
      memory.set(shuffled, src);
      kernel.exports.unshuffle_chunk(src, dst, shuffled.length, zstdBlock, 4, 0x04);
      kept.set(memory.subarray(dst, dst + shuffled.length));
    }
  };
  const direct = race(decodeAll(zstdChunks), copyIn);
  report.table(
    "blosc-zstd-bitshuffle decode: where @zarr/codec-zstd writes the shuffled blocks",
    ["streams decoded", "MiB/s"],
    [
      ["into the kernel's memory (the codec's path)", `${(bytes / MiB / direct.wasm).toFixed(0)}`],
      ["into a JavaScript buffer, then copied in", `${(bytes / MiB / direct.ts).toFixed(0)}`],
    ],
    ["l", "r"],
  );
  report.finish();
});
