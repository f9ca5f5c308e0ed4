#!/usr/bin/env node
// The raw floor: the least a reader of an uncompressed Zarr v3 array must do. It allocates
// the result, reads each chunk file into one reused buffer and copies the chunk's rows into
// the result. No codecs, no selection machinery, no concurrency.
//
//   node bench/lib/floor-read.mjs STORE_DIR     (as a process: what read-floor.mjs times)
//   import { floorRead } from "./floor-read.mjs" (in-process)
//
// Only what the bench writes: a 2-d v3 array, "bytes" codec alone (little endian), default
// chunk keys with "/" separator.
import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const WIDTHS = { int8: 1, uint8: 1, int16: 2, uint16: 2, int32: 4, uint32: 4, float32: 4, int64: 8, uint64: 8, float64: 8 };

/** Reads the whole array at `dir`; returns its bytes (C order). */
export function floorRead(dir) {
  const meta = JSON.parse(readFileSync(join(dir, "zarr.json"), "utf8"));
  const codecs = meta.codecs.map((c) => c.name);
  if (codecs.length !== 1 || codecs[0] !== "bytes" || meta.shape.length !== 2) {
    throw new Error(`floor-read: only 2-d arrays with the bytes codec alone (got ${codecs.join(", ")})`);
  }
  const width = WIDTHS[meta.data_type];
  const [rows, cols] = meta.shape;
  const [cr, cc] = meta.chunk_grid.configuration.chunk_shape;
  const result = new Uint8Array(rows * cols * width);
  const chunk = Buffer.allocUnsafe(cr * cc * width);
  const rowBytes = cols * width;
  const chunkRowBytes = cc * width;
  for (let i = 0; i * cr < rows; i++) {
    for (let j = 0; j * cc < cols; j++) {
      let fd;
      try {
        fd = openSync(join(dir, "c", String(i), String(j)), "r");
      } catch (error) {
        if (error.code === "ENOENT") continue; // missing chunk: fill value 0, already there
        throw error;
      }
      try {
        let got = 0;
        while (got < chunk.length) {
          const n = readSync(fd, chunk, got, chunk.length - got, got);
          if (n === 0) break;
          got += n;
        }
      } finally {
        closeSync(fd);
      }
      const rowCount = Math.min(cr, rows - i * cr);
      const copy = Math.min(cc, cols - j * cc) * width;
      let dst = i * cr * rowBytes + j * chunkRowBytes;
      for (let r = 0, src = 0; r < rowCount; r++, src += chunkRowBytes, dst += rowBytes) {
        result.set(chunk.subarray(src, src + copy), dst);
      }
    }
  }
  return result;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [dir] = process.argv.slice(2);
  if (dir === undefined) {
    console.error("usage: floor-read.mjs STORE_DIR");
    process.exit(2);
  }
  floorRead(dir);
}
