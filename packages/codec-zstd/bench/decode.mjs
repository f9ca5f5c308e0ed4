// Decode throughput of 1 MiB zstd chunks written by libzstd (numcodecs 0.11 in Debian's
// Python), side by side in one run: this package's decoder, fzstd (pure JS), zstd compiled
// to WebAssembly (numcodecs.js, what zarrita.js uses; when it can be found in the
// workspace) and libzstd itself (timed inside a Python child, so without JS overhead).
//
//   npx tsc -p tsconfig.build.json && node bench/decode.mjs [--quick] [--levels 1,3,9,19]
//
// Payloads: (a) a 512×512 float32 chunk of the read benchmark's array
// (sin(i·0.001)·100 + (i mod 8192)·0.01), (b) int16 counts, (c) text. The machine may be
// shared: every decoder (libzstd included) runs one short burst per round, rounds
// interleave the decoders, and each number is the best round, in MiB of decoded output
// per second. "ours/x" is this decoder's speed relative to x.
import { spawn } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { zstdDecompress } from "../dist/index.js";

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const levelArg = args.indexOf("--levels");
const LEVELS = levelArg >= 0 ? args[levelArg + 1].split(",").map(Number) : [1, 3, 9, 19];
const ROUNDS = quick ? 3 : 10;
const ROUND_MS = quick ? 60 : 120;
const MiB = 1024 * 1024;

// --- payloads (1 MiB each) -----------------------------------------------------------
function float32Chunk() {
  // Chunk (3, 5) of the 8192×8192 array of bench/read.mjs, in C order.
  const n = 8192;
  const c = 512;
  const out = new Float32Array(c * c);
  for (let r = 0; r < c; r++) {
    for (let col = 0; col < c; col++) {
      const i = (3 * c + r) * n + 5 * c + col;
      out[r * c + col] = Math.sin(i * 0.001) * 100 + (i % n) * 0.01;
    }
  }
  return new Uint8Array(out.buffer);
}
let seed = 7;
const rnd = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
function int16Counts() {
  const out = new Int16Array(MiB / 2);
  for (let i = 0; i < out.length; i++) out[i] = Math.floor(200 + 100 * Math.sin(i / 300) + 20 * rnd());
  return new Uint8Array(out.buffer);
}
function text() {
  const words = ["zarr", "chunk", "array", "codec", "shard", "float32", "metadata", "group", "the", "of", "and", "store"];
  let s = "";
  while (s.length < MiB) s += `${words[Math.floor(rnd() * words.length)]}${rnd() < 0.1 ? ".\n" : " "}`;
  return new TextEncoder().encode(s.slice(0, MiB));
}
const PAYLOADS = { "float32 smooth": float32Chunk(), "int16 counts": int16Counts(), text: text() };

// --- libzstd: a Python child that encodes every case, then times decodes on request ----
// The child stays up so libzstd is timed in the same rounds as the JavaScript decoders
// (interleaved), which keeps the comparison fair on a machine whose load varies.
const PY = `
import sys, struct, time, numcodecs
inp, out = sys.stdin.buffer, sys.stdout.buffer
(count,) = struct.unpack("<i", inp.read(4))
frames = []
for _ in range(count):
    level, size = struct.unpack("<iI", inp.read(8))
    raw = inp.read(size)
    frame = bytes(numcodecs.Zstd(level=level).encode(raw))
    assert bytes(numcodecs.Zstd().decode(frame)) == raw
    frames.append(frame)
    out.write(struct.pack("<I", len(frame)) + frame)
out.flush()
codec = numcodecs.Zstd()
for line in inp:
    i, ms = line.split()
    frame = frames[int(i)]
    n = 0; t0 = time.perf_counter()
    while True:
        codec.decode(frame); n += 1
        t = time.perf_counter() - t0
        if t * 1000 >= float(ms): break
    out.write(f"{t / n}\\n".encode()); out.flush()
`;
const cases = [];
for (const [name, data] of Object.entries(PAYLOADS)) for (const level of LEVELS) cases.push({ name, level, data });

/** Reads exact byte counts and lines from a stream. */
function reader(stream) {
  let buffered = Buffer.alloc(0);
  let wake = null;
  stream.on("data", (chunk) => {
    buffered = Buffer.concat([buffered, chunk]);
    wake?.();
  });
  const until = async (ready) => {
    while (!ready()) await new Promise((resolve) => (wake = resolve));
  };
  return {
    async bytes(n) {
      await until(() => buffered.length >= n);
      const out = buffered.subarray(0, n);
      buffered = buffered.subarray(n);
      return out;
    },
    async line() {
      await until(() => buffered.includes(10));
      const at = buffered.indexOf(10);
      const out = buffered.subarray(0, at).toString();
      buffered = buffered.subarray(at + 1);
      return out;
    },
  };
}
const python = spawn("/usr/bin/python3", ["-c", PY], { stdio: ["pipe", "pipe", "inherit"] });
const fromPython = reader(python.stdout);
{
  const head = Buffer.alloc(4);
  head.writeInt32LE(cases.length, 0);
  python.stdin.write(head);
  for (const c of cases) {
    const h = Buffer.alloc(8);
    h.writeInt32LE(c.level, 0);
    h.writeUInt32LE(c.data.length, 4);
    python.stdin.write(h);
    python.stdin.write(c.data);
  }
  for (const c of cases) {
    const len = (await fromPython.bytes(4)).readUInt32LE(0);
    c.frame = new Uint8Array(await fromPython.bytes(len));
  }
}
/** Seconds per libzstd decode of case `i`, timed in Python for about `ms`. */
async function libzstdTime(i, ms) {
  python.stdin.write(`${i} ${ms}\n`);
  return Number(await fromPython.line());
}

// --- the JavaScript decoders ------------------------------------------------------------
const decoders = { ours: (frame) => zstdDecompress(frame) };
try {
  const fzstd = await import("fzstd");
  decoders.fzstd = (frame) => fzstd.decompress(frame);
} catch {
  console.log("(fzstd not installed: skipped)");
}
try {
  // numcodecs.js (zstd in WebAssembly) as zarrita.js uses it, from the workspace's bench package.
  const zarrita = realpathSync(join(import.meta.dirname, "../../../bench/node_modules/zarrita"));
  const path = join(zarrita, "../numcodecs/dist/zstd.js");
  if (!existsSync(path)) throw new Error("not found");
  const { default: Zstd } = await import(path);
  const codec = Zstd.fromConfig({ id: "zstd", level: 1 });
  decoders.wasm = (frame) => codec.decode(frame);
  await decoders.wasm(cases[0].frame);
} catch {
  console.log("(numcodecs.js WebAssembly zstd not found: skipped)");
}

function same(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Seconds per call of `fn(frame)` in one burst of about ROUND_MS. */
async function burst(fn, frame) {
  let n = 0;
  const t0 = performance.now();
  let t = 0;
  do {
    await fn(frame);
    n++;
    t = performance.now() - t0;
  } while (t < ROUND_MS);
  return t / 1000 / n;
}

const names = Object.keys(decoders);
const rate = (bytes, seconds) => (bytes / MiB / seconds).toFixed(0);
const header = [
  "payload",
  "level",
  "ratio",
  ...names.map((n) => `${n} MiB/s`),
  "libzstd MiB/s",
  "ours/libzstd",
  "ours/fzstd",
  "ours/wasm",
];
const rows = [];
for (const [index, c] of cases.entries()) {
  for (const name of names) {
    const result = await decoders[name](c.frame);
    if (!same(result, c.data)) throw new Error(`${name} decoded ${c.name} level ${c.level} wrongly`);
    for (let i = 0; i < 3; i++) await decoders[name](c.frame); // warm-up (and tier-up)
  }
  // Best of ROUNDS rounds; in each round every decoder (libzstd too) runs one burst.
  const times = { libzstd: Number.POSITIVE_INFINITY };
  for (const name of names) times[name] = Number.POSITIVE_INFINITY;
  for (let r = 0; r < ROUNDS; r++) {
    for (const name of names) times[name] = Math.min(times[name], await burst(decoders[name], c.frame));
    times.libzstd = Math.min(times.libzstd, await libzstdTime(index, ROUND_MS));
  }
  const row = [
    c.name,
    String(c.level),
    (c.data.length / c.frame.length).toFixed(2),
    ...names.map((n) => rate(c.data.length, times[n])),
    rate(c.data.length, times.libzstd),
    (times.libzstd / times.ours).toFixed(2),
    times.fzstd ? (times.fzstd / times.ours).toFixed(2) : "-",
    times.wasm ? (times.wasm / times.ours).toFixed(2) : "-",
  ];
  rows.push(row);
  console.log(row.join("\t"));
}
python.stdin.end();
console.log();
console.log(`| ${header.join(" | ")} |`);
console.log(`|${header.map(() => "---").join("|")}|`);
for (const row of rows) console.log(`| ${row.join(" | ")} |`);
