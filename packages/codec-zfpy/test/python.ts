/**
 * ZFP streams from libzfp through Debian's zfpy (ZFP 1.0), with what zfpy decodes them
 * to: the reference our decoder must match bit for bit. All cases go through one Python
 * process.
 */
import { execFileSync } from "node:child_process";

/** One stream to make: NumPy dtype, shape, zfpy keyword arguments, and how to fill it. */
export interface ZfpyCase {
  dtype: "float32" | "float64" | "int32" | "int64";
  shape: number[];
  /** `compress_numpy` keywords: `{tolerance}`, `{rate}`, `{precision}`, or `{}` (reversible). */
  args: { tolerance?: number; rate?: number; precision?: number };
  /** `smooth`: a field with noise; `wild`: random bits (NaNs, infinities, subnormals, full-range ints); `sparse`: mostly zeros. */
  fill: "smooth" | "wild" | "sparse";
  seed: number;
}

/** What zfpy made: the stream, the input, and `decompress_numpy`'s output bytes (C order, little-endian). */
export interface ZfpyResult {
  stream: Uint8Array;
  input: Uint8Array;
  decoded: Uint8Array;
}

const SCRIPT = `
import sys, json, struct, zfpy, numpy as np
cases = json.loads(sys.stdin.read())
out = []
for c in cases:
    rng = np.random.default_rng(c["seed"])
    shape = tuple(c["shape"])
    dt = np.dtype(c["dtype"])
    n = int(np.prod(shape))
    if c["fill"] == "wild":
        raw = rng.integers(0, 256, size=n * dt.itemsize, dtype=np.uint8)
        a = raw.view(dt).reshape(shape).copy()
        if dt.kind == "f":
            a.flat[::7] = 0
            a.flat[3::11] = -0.0
    else:
        grids = np.meshgrid(*[np.linspace(0, 3, s) for s in shape], indexing="ij")
        v = sum(np.sin(g * (i + 1)) for i, g in enumerate(grids)) + 0.01 * rng.standard_normal(shape)
        if c["fill"] == "sparse":
            v = np.where(rng.random(shape) < 0.8, 0, v * 1e-30 if dt.kind == "f" else v)
        a = (v * 1e6).astype(dt) if dt.kind == "i" else v.astype(dt)
    stream = zfpy.compress_numpy(a, **c["args"])
    d = zfpy.decompress_numpy(stream)
    assert d.shape == a.shape and d.dtype == a.dtype
    for b in (bytes(stream), a.astype(dt.newbyteorder("<")).tobytes(), d.astype(dt.newbyteorder("<")).tobytes()):
        out.append(struct.pack("<I", len(b)))
        out.append(b)
sys.stdout.buffer.write(b"".join(out))
`;

/** Runs the cases through zfpy. */
export function zfpyBatch(cases: readonly ZfpyCase[]): ZfpyResult[] {
  let output: Buffer;
  try {
    output = execFileSync("/usr/bin/python3", ["-c", SCRIPT], { input: JSON.stringify(cases), maxBuffer: 1 << 30 });
  } catch (e) {
    const x = e as { stderr?: Buffer; status?: number; signal?: string };
    throw new Error(`zfpy failed on the batch (exit status ${x.status}, signal ${x.signal}): ${String(x.stderr ?? "")}`);
  }
  const bytes = new Uint8Array(output.buffer, output.byteOffset, output.byteLength);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const parts: Uint8Array[] = [];
  for (let pos = 0; pos < bytes.length; ) {
    const n = view.getUint32(pos, true);
    parts.push(bytes.slice(pos + 4, pos + 4 + n));
    pos += 4 + n;
  }
  const results: ZfpyResult[] = [];
  for (let i = 0; i < parts.length; i += 3) results.push({ stream: parts[i], input: parts[i + 1], decoded: parts[i + 2] });
  return results;
}
