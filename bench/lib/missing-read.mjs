#!/usr/bin/env node
// One in-process read for bench/missing-chunks.mjs: opens the array at STORE (v2 or v3) the
// way a user would (FileSystemStore, default options) and times `get(array, null)` alone;
// prints `{ "seconds": … }`. Run under bench/lib/rusage.py for the process's peak RSS.
//
//   node bench/lib/missing-read.mjs STORE
import { get, openArray } from "@zarr/all";
import { FileSystemStore } from "@zarr/store-fs";

const array = await openArray(new FileSystemStore(process.argv[2], { readOnly: true }), "");
const t0 = performance.now();
const result = await get(array, null);
const seconds = (performance.now() - t0) / 1000;
process.stdout.write(`${JSON.stringify({ seconds, elements: result.data.length })}\n`);
