// Quick throughput check (not a unit test): node scripts/bench.mjs after `npx tsc -p tsconfig.build.json`.
// Decodes a 4 MiB float32 field (1024 × 1024) compressed by zfpy in each mode (and the same
// field as float64), and compares
// with zfpy's own decompress_numpy (libzfp 1.0, C) through /usr/bin/python3.
import { execFileSync } from "node:child_process";
import { zfpDecompress } from "../dist/index.js";

const MODES = [
  ["fixed accuracy 1e-3", "tolerance=1e-3"],
  ["fixed rate 8", "rate=8"],
  ["fixed precision 16", "precision=16"],
  ["reversible", ""],
  ["float64: accuracy 1e-6", "tolerance=1e-6, float64=1"],
];
const script = `
import sys, time, struct, numpy as np, zfpy
y, x = np.mgrid[0:1024, 0:1024]
rng = np.random.default_rng(12345)
a = (280 + 15 * np.sin(x / 90) * np.cos(y / 70) + 0.05 * rng.random((1024, 1024))).astype(np.float32)
out = []
for kw in sys.argv[1:]:
    args = eval("dict(" + kw + ")")
    s = zfpy.compress_numpy(a.astype(np.float64) if args.pop("float64", 0) else a, **args)
    zfpy.decompress_numpy(s)
    best = min((lambda t0: (zfpy.decompress_numpy(s), time.perf_counter() - t0)[1])(time.perf_counter()) for _ in range(5))
    out.append(struct.pack("<Id", len(s), best) + bytes(s))
sys.stdout.buffer.write(b"".join(out))
`;
const raw = execFileSync("/usr/bin/python3", ["-c", script, ...MODES.map((m) => m[1])], { maxBuffer: 1 << 28 });
const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
let pos = 0;
console.log("mode                    | stream     | ours         | zfpy (C)");
for (const [name] of MODES) {
  const n = view.getUint32(pos, true);
  const pythonSeconds = view.getFloat64(pos + 4, true);
  const stream = new Uint8Array(raw.buffer, raw.byteOffset + pos + 12, n);
  pos += 12 + n;
  zfpDecompress(stream); // warm up
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    zfpDecompress(stream);
    best = Math.min(best, (performance.now() - t0) / 1000);
  }
  // MiB of decoded values per second (8 MiB for the float64 field).
  const MiB = name.startsWith("float64") ? 8 : 4;
  const rate = (s) => `${(MiB / s).toFixed(0).padStart(5)} MiB/s`;
  console.log(`${name.padEnd(23)} | ${(n / 1024).toFixed(0).padStart(5)} KiB  | ${rate(best)}  | ${rate(pythonSeconds)}`);
}
