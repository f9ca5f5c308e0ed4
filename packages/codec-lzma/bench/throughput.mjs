// Throughput of @zarr/codec-lzma on 4 MiB of float32 array data, next to liblzma (Python's
// lzma module) on the same bytes. Run after building: `node bench/throughput.mjs`.
// Reports CPU-time MB/s (less sensitive to a busy machine) and wall-clock MB/s.
import { execFileSync } from "node:child_process";
import { xzCompress, xzDecompress } from "@zarr/codec-lzma";

const count = (4 << 20) / 4;
const field = new Float32Array(count);
let seed = 1;
const rand = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
let walk = 0;
for (let i = 0; i < count; i++) {
  walk += (rand() - 0.5) * 0.01;
  field[i] = 280 + 10 * Math.sin((i / 1440) * 2 * Math.PI) + walk;
}
const data = new Uint8Array(field.buffer);
const MB = data.length / 1e6;

function measure(fn, runs) {
  let best = { cpu: Infinity, wall: Infinity };
  let result;
  for (let r = 0; r < runs; r++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    result = fn();
    const wall = (performance.now() - t0) / 1000;
    const c = process.cpuUsage(c0);
    const cpu = (c.user + c.system) / 1e6;
    if (cpu < best.cpu) best = { cpu, wall };
  }
  return { result, ...best };
}

const py = (preset) =>
  JSON.parse(
    execFileSync(
      "/usr/bin/python3",
      [
        "-c",
        `import sys, lzma, time, json
d = sys.stdin.buffer.read()
t = time.process_time(); w = time.perf_counter(); c = lzma.compress(d, preset=${preset}); e = (time.process_time() - t, time.perf_counter() - w)
t = time.process_time(); w = time.perf_counter(); [lzma.decompress(c) for _ in range(3)]; x = ((time.process_time() - t) / 3, (time.perf_counter() - w) / 3)
print(json.dumps({"size": len(c), "enc": e, "dec": x}))`,
      ],
      { input: data, maxBuffer: 1 << 30 },
    ).toString(),
  );

const fmt = (s) => `${(MB / s).toFixed(2)} MB/s`;
console.log(`input: ${data.length} bytes of float32 array data`);
for (const preset of [1, 6]) {
  const enc = measure(() => xzCompress(data, { preset }), 2);
  const dec = measure(() => xzDecompress(enc.result), 5);
  const ref = py(preset);
  console.log(
    `preset ${preset}: ours ${enc.result.length} bytes, encode ${fmt(enc.cpu)} cpu (${fmt(enc.wall)} wall), decode ${fmt(dec.cpu)} cpu (${fmt(dec.wall)} wall)`,
  );
  console.log(
    `          liblzma ${ref.size} bytes, encode ${fmt(ref.enc[0])} cpu (${fmt(ref.enc[1])} wall), decode ${fmt(ref.dec[0])} cpu (${fmt(ref.dec[1])} wall)`,
  );
}
