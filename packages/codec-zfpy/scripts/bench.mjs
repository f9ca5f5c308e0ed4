// Quick throughput check (not a unit test): node scripts/bench.mjs after `npx tsc -p tsconfig.build.json`.
// Decodes a 4 MiB float32 field (1024 × 1024) compressed by zfpy in each mode (and the same
// field as float64), then encodes the float32 field losslessly, and compares with zfpy
// (libzfp 1.0, C) through /usr/bin/python3, as CPU time of the best of 5 runs.
import { execFileSync } from "node:child_process";
import { zfpCompressReversible, zfpDecompress } from "../dist/index.js";

/** CPU seconds `fn` takes (robust on a shared machine, unlike wall time), best of 5. */
function cpuSeconds(fn) {
  fn(); // warm up
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 5; i++) {
    const t0 = process.cpuUsage();
    fn();
    const t = process.cpuUsage(t0);
    best = Math.min(best, (t.user + t.system) / 1e6);
  }
  return best;
}

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
    best = min((lambda t0: (zfpy.decompress_numpy(s), time.process_time() - t0)[1])(time.process_time()) for _ in range(5))
    out.append(struct.pack("<Id", len(s), best) + bytes(s))
# Lossless compression of the float32 field, for the encoder.
best = min((lambda t0: (zfpy.compress_numpy(a), time.process_time() - t0)[1])(time.process_time()) for _ in range(5))
out.append(struct.pack("<d", best) + a.astype("<f4").tobytes())
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
  const best = cpuSeconds(() => zfpDecompress(stream));
  // MiB of decoded values per second (8 MiB for the float64 field).
  const MiB = name.startsWith("float64") ? 8 : 4;
  const rate = (s) => `${(MiB / s).toFixed(0).padStart(5)} MiB/s`;
  console.log(`${name.padEnd(23)} | ${(n / 1024).toFixed(0).padStart(5)} KiB  | ${rate(best)}  | ${rate(pythonSeconds)}`);
}

// Encoding (lossless, the only mode written) of the same float32 field.
const pythonEncode = view.getFloat64(pos, true);
const field = new Float32Array(raw.buffer.slice(raw.byteOffset + pos + 8, raw.byteOffset + pos + 8 + 4 * 1024 * 1024));
const bestEncode = cpuSeconds(() => zfpCompressReversible(field, [1024, 1024]));
console.log(`encode, reversible      |            | ${(4 / bestEncode).toFixed(0).padStart(5)} MiB/s  | ${(4 / pythonEncode).toFixed(0).padStart(5)} MiB/s`);
