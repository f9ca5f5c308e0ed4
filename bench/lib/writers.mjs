// The writers of bench/write.mjs: @zarr and zarrita.js (Zarr v3) in this process, and
// zarr-python 2.13 (Zarr v2) in its own. Each returns the median seconds of `reps` writes of
// the n×n bench array (each into a freshly emptied directory).
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { LIB, PYTHON, loadZarrita } from "./common.mjs";
import { v3Codecs } from "./data.mjs";
import { median } from "./measure.mjs";

async function timeWrites(dir, reps, write) {
  const times = [];
  for (let r = 0; r < reps; r++) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const t0 = performance.now();
    await write();
    times.push((performance.now() - t0) / 1000);
  }
  rmSync(dir, { recursive: true, force: true });
  return median(times);
}

/** @zarr: createArray + set of the whole array (with a pool of `workers` threads when > 0, created before timing). */
export async function writeOurs({ dir, n, c, variant, values, reps, workers = 0 }) {
  const { createArray, set, FileSystemStore } = await import("@zarr/all");
  const { createWorkerPool } = await import("@zarr/all/workers");
  const pool = workers > 0 ? createWorkerPool({ size: workers }) : undefined;
  const path = join(dir, "ours.zarr");
  try {
    return await timeWrites(path, reps, async () => {
    const arr = await createArray(new FileSystemStore(path), "", {
      shape: [n, n],
      chunkShape: [c, c],
      dataType: "float32",
      fillValue: 0,
      codecs: v3Codecs(variant),
    });
    await set(arr, null, values, { workers: pool });
  });
  } finally {
    await pool?.close();
  }
}

/** zarrita.js: create + set of the whole array. */
export async function writeZarrita({ dir, n, c, variant, values, reps }) {
  const z = await loadZarrita();
  if (!z.ok) throw new Error(z.why);
  const { zarrita, storage } = z;
  const path = join(dir, "zarrita.zarr");
  return timeWrites(path, reps, async () => {
    const arr = await zarrita.create(zarrita.root(new storage.FileSystemStore(path)), {
      shape: [n, n],
      chunkShape: [c, c],
      dtype: "float32",
      fillValue: 0,
      codecs: v3Codecs(variant),
    });
    await zarrita.set(arr, null, { data: values, shape: [n, n], stride: [n, 1] });
  });
}

/** zarr-python 2.13 (its own process, always): open_array + z[:] = data. */
export function writePython({ dir, n, c, variant, reps }) {
  const out = execFileSync(
    PYTHON,
    [join(LIB, "zarr_python.py"), "time-write", join(dir, "py.zarr"), String(n), String(c), JSON.stringify(variant.v2), String(reps)],
    { encoding: "utf8" },
  );
  return JSON.parse(out);
}

export const WRITERS = { "@zarr": writeOurs, "zarrita.js": writeZarrita };
