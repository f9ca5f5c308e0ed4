// Quick throughput check (not a unit test): node scripts/bench.mjs after `npx tsc -p tsconfig.build.json`.
// Compares sizes and speed with libbzip2 through /usr/bin/python3.
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { bz2Compress, bz2Decompress } from "../dist/index.js";

function smoothFloat32(n) {
  // A temperature-like field: smooth in both directions plus a little noise, 1024 columns.
  const a = new Float32Array(n);
  let seed = 12345;
  const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  for (let i = 0; i < n; i++) {
    const x = i % 1024;
    const y = Math.floor(i / 1024);
    a[i] = 280 + 15 * Math.sin(x / 90) * Math.cos(y / 70) + 0.05 * rand();
  }
  return new Uint8Array(a.buffer);
}
function randomFloat32(n) {
  // Uniform in [0, 1) from xorshift32: mantissas carry ~23 bits of noise each.
  const a = new Float32Array(n);
  let x = 99;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    a[i] = (x >>> 0) / 2 ** 32;
  }
  return new Uint8Array(a.buffer);
}
function intRamp(n) {
  const a = new Int32Array(n);
  for (let i = 0; i < n; i++) a[i] = (i * 7) % 5000;
  return new Uint8Array(a.buffer);
}
function text(nBytes) {
  // Real text: TypeScript's bundled lib declaration files.
  const dir = new URL("../../../node_modules/typescript/lib/", import.meta.url);
  const files = readdirSync(dir).filter((f) => f.endsWith(".d.ts")).sort();
  const out = new Uint8Array(nBytes);
  let pos = 0;
  for (const f of files) {
    if (pos >= nBytes) break;
    const bytes = readFileSync(new URL(f, dir));
    const take = Math.min(bytes.length, nBytes - pos);
    out.set(bytes.subarray(0, take), pos);
    pos += take;
  }
  return out.subarray(0, pos);
}

const MiB = 1 << 20;
const cases = [
  ["float32 smooth field 4 MiB", smoothFloat32(MiB)],
  ["float32 uniform random 4 MiB", randomFloat32(MiB)],
  ["int32 ramp 4 MiB", intRamp(MiB)],
  ["text (TypeScript .d.ts) 4 MiB", text(4 * MiB)],
  ["zeros 4 MiB", new Uint8Array(4 * MiB)],
];

// CPU time (user + system) of the best of several runs: on a shared machine wall time
// mostly measures the other processes; libbzip2 is timed the same way.
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
function time(fn, reps) {
  fn();
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < reps; i++) {
    const t0 = cpuMs();
    fn();
    best = Math.min(best, cpuMs() - t0);
  }
  return best;
}

const py = `
import bz2, sys, time
data = sys.stdin.buffer.read()
level = int(sys.argv[1])
c = bz2.compress(data, level)
def best(fn, reps):
    b = 1e9
    for _ in range(reps):
        t0 = time.process_time(); fn(); b = min(b, time.process_time() - t0)
    return b * 1000
print(len(c), best(lambda: bz2.compress(data, level), 3), best(lambda: bz2.decompress(c), 5))
`;

for (const [name, data] of cases) {
  for (const level of [1, 9]) {
    const packed = bz2Compress(data, level);
    const back = bz2Decompress(packed);
    if (Buffer.compare(Buffer.from(back), Buffer.from(data)) !== 0) throw new Error(`round trip failed: ${name}`);
    const enc = time(() => bz2Compress(data, level), 3);
    const dec = time(() => bz2Decompress(packed), 5);
    const [refSize, refEnc, refDec] = execFileSync("/usr/bin/python3", ["-c", py, String(level)], { input: data, maxBuffer: 1 << 28 })
      .toString().trim().split(" ").map(Number);
    const mbs = (ms) => ((data.length / MiB) / (ms / 1000)).toFixed(1);
    console.log(
      `${name.padEnd(30)} L${level}  size ${packed.length} (libbz2 ${refSize}, ${((packed.length / refSize - 1) * 100).toFixed(2)}%)` +
        `  enc ${mbs(enc)} MiB/s (libbz2 ${mbs(refEnc)})  dec ${mbs(dec)} MiB/s (libbz2 ${mbs(refDec)})`,
    );
  }
}
