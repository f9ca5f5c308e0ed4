#!/usr/bin/env node
// A GeoTIFF read through its kerchunk reference set (`zarr refs from-geotiff`) against GDAL
// reading the TIFF itself: a uint16 raster in 512×512 tiles (smooth values with noise, like a
// DEM), once per compression (none, DEFLATE, ZSTD, LZW). Per compression: the time
// `zarr refs from-geotiff` takes (whole process), then whole-raster reads in turn — @zarr
// (`get` of `reference+file://…`, one thread, and with a worker pool), GDAL
// (`ReadAsArray` in a python3-gdal process, a fresh dataset each time so its block cache
// starts empty) and, where numcodecs 0.11 decodes the codec, zarr-python through fsspec's
// ReferenceFileSystem. Reads are checked equal (a checksum of the bytes) before timing.
//
//   node bench/geotiff-refs.mjs           8192×8192 (128 MiB), 3 repetitions
//   node bench/geotiff-refs.mjs --quick   1024×1024, one repetition (alias: --smoke)
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { get, openArray, openStore } from "@zarr/all";
import { createWorkerPool } from "@zarr/all/workers";
import { CLI, CPUS, MiB, main, NODE, PYTHON, parseArgs, reps as repsOf, requireBuilt } from "./lib/common.mjs";
import { dataRoot } from "./lib/data.mjs";
import { median, timeIt, timeProcess } from "./lib/measure.mjs";
import { Report, ratio, seconds, throughput } from "./lib/output.mjs";

const COMPRESSIONS = ["NONE", "DEFLATE", "ZSTD", "LZW"];
/** What numcodecs 0.11 decodes: libtiff's zstd frames have no content size, and there is no LZW codec. */
const PYTHON_READS = new Set(["NONE", "DEFLATE"]);

/** Python: times `reps` whole reads (GDAL, or zarr-python over the references) and prints the median seconds and a sha256. */
const PY = `
import sys, time, hashlib, statistics
kind, path, reps = sys.argv[1], sys.argv[2], int(sys.argv[3])
def read():
    if kind == "gdal":
        from osgeo import gdal
        return gdal.Open(path).ReadAsArray()
    import fsspec, zarr
    return zarr.open_group(fsspec.filesystem("reference", fo=path).get_mapper(""), mode="r")["data"][...]
a = read()
digest = hashlib.sha256(a.astype(a.dtype.newbyteorder("<")).tobytes()).hexdigest()
times = []
for _ in range(reps):
    t0 = time.perf_counter(); read(); times.append(time.perf_counter() - t0)
print(statistics.median(times), digest)
`;

function python(kind, path, reps) {
  const out = execFileSync(PYTHON, ["-c", PY, kind, path, String(reps)], { encoding: "utf8", maxBuffer: 1 << 20 }).trim().split(/\s+/);
  return { seconds: Number(out[0]), digest: out[1] };
}

await main(async () => {
  requireBuilt();
  const args = parseArgs();
  const side = args.number("--side", args.quick ? 1024 : 8192);
  const reps = repsOf(args, 3);
  const dir = join(dataRoot(), "geotiff-refs");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const values = new Uint16Array(side * side);
  let seed = 1;
  for (let i = 0; i < values.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    const r = Math.floor(i / side);
    const c = i % side;
    values[i] = 2000 + Math.round(500 * Math.sin(r / 300) * Math.cos(c / 200)) + (seed >>> 28);
  }
  writeFileSync(join(dir, "in.raw"), values);
  writeFileSync(join(dir, "in.hdr"), `ENVI\nsamples = ${side}\nlines = ${side}\nbands = 1\nheader offset = 0\nfile type = ENVI Standard\ndata type = 12\ninterleave = bsq\nbyte order = 0\n`);
  const bytes = values.byteLength;
  const expected = createHash("sha256").update(new Uint8Array(values.buffer)).digest("hex");
  const rows = [];
  const ratios = [];
  const pool = createWorkerPool({ size: CPUS });
  try {
    for (const compression of COMPRESSIONS) {
      const tif = join(dir, `${compression}.tif`);
      const refs = join(dir, `${compression}.json`);
      execFileSync("gdal_translate", ["-q", "-a_srs", "EPSG:32633", "-a_ullr", "500000", "4600000", String(500000 + side * 10), String(4600000 - side * 10), "-co", "TILED=YES", "-co", "BLOCKXSIZE=512", "-co", "BLOCKYSIZE=512", "-co", `COMPRESS=${compression}`, join(dir, "in.raw"), tif]);
      const refsSeconds = timeProcess(NODE, [CLI, "refs", "from-geotiff", tif, refs, "--overwrite"]);
      const url = `reference+file://${refs}`;
      const readOurs = async (workers) => {
        const arr = await openArray(await openStore(url), "data");
        return get(arr, null, workers === undefined ? {} : { workers });
      };
      const first = await readOurs();
      const digest = createHash("sha256").update(new Uint8Array(first.data.buffer, first.data.byteOffset, first.data.byteLength)).digest("hex");
      if (digest !== expected) throw new Error(`${compression}: @zarr read other values than were written`);
      await readOurs(pool); // the pool's workers start and load the codec before timing
      const ours = [];
      const oursPool = [];
      for (let r = 0; r < reps; r++) {
        ours.push(await timeIt(() => readOurs()));
        oursPool.push(await timeIt(() => readOurs(pool)));
      }
      const gdal = python("gdal", tif, reps);
      if (gdal.digest !== expected) throw new Error(`${compression}: GDAL read other values than were written`);
      const zp = PYTHON_READS.has(compression) ? python("zarr", refs, reps) : undefined;
      if (zp !== undefined && zp.digest !== expected) throw new Error(`${compression}: zarr-python read other values than were written`);
      const t = median(ours);
      const tp = median(oursPool);
      rows.push([
        compression,
        seconds(refsSeconds),
        `${seconds(t)} (${throughput(bytes, t)})`,
        `${seconds(tp)} (${throughput(bytes, tp)})`,
        `${seconds(gdal.seconds)} (${throughput(bytes, gdal.seconds)})`,
        zp === undefined ? "–" : `${seconds(zp.seconds)} (${throughput(bytes, zp.seconds)})`,
        ratio(t / gdal.seconds),
        ratio(tp / gdal.seconds),
      ]);
      ratios.push([compression, t / gdal.seconds]);
    }
  } finally {
    await pool.close();
  }
  const report = new Report({ script: import.meta.filename, title: "A GeoTIFF read through its reference set vs GDAL (`geotiff-refs.mjs`)", args });
  report.line(`uint16 ${side}×${side} (${(bytes / MiB).toFixed(0)} MiB), 512×512 tiles, ${(side / 512) ** 2} tiles; median of ${reps}; ${CPUS} CPUs`);
  report.line("every reader's values checked equal to what was written before timing");
  report.table(
    "Whole-raster reads, seconds (MiB/s)",
    ["TIFF compression", "zarr refs from-geotiff (process)", "@zarr, one thread", `@zarr, pool of ${CPUS}`, "GDAL ReadAsArray", "zarr-python + fsspec", "@zarr / GDAL", `@zarr pool / GDAL`],
    rows,
    ["l", "r", "r", "r", "r", "r", "r", "r"],
  );
  report.note("zarr-python (numcodecs 0.11) cannot decode libtiff's ZSTD frames (no content size in the frame header) and has no LZW codec without imagecodecs: not run for those.");
  report.note("No target in the issue for this: the ratios are evidence (below 1: @zarr faster than GDAL).");
  report.finish();
});
