#!/usr/bin/env node
// zarrita.js reading a whole array into memory, as a process of its own (what the
// whole-process benchmarks time against `zarr get`):
//
//   node bench/lib/zarrita-read.mjs STORE_DIR        a v3 or v2 array at the directory's root
import { FileSystemStore } from "@zarrita/storage";
import * as zarrita from "zarrita";

const [dir] = process.argv.slice(2);
if (dir === undefined) {
  console.error("usage: zarrita-read.mjs STORE_DIR");
  process.exit(2);
}
const array = await zarrita.open(zarrita.root(new FileSystemStore(dir)), { kind: "array" });
const result = await zarrita.get(array);
if (result.data.length !== array.shape.reduce((a, b) => a * b, 1)) throw new Error("short read");
