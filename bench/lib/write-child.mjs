#!/usr/bin/env node
// One writer of bench/write.mjs --isolated, in a process of its own: generates the values,
// writes them `reps` times, prints the median seconds as JSON.
//
//   node bench/lib/write-child.mjs WRITER VARIANT N C REPS DIR [WORKERS]   (WRITER: @zarr or zarrita.js)
import { variant as byName, benchValues } from "./data.mjs";
import { WRITERS } from "./writers.mjs";

const [writer, name, n, c, reps, dir, workers = "0"] = process.argv.slice(2);
if (!(writer in WRITERS) || dir === undefined) {
  console.error(`usage: write-child.mjs ${Object.keys(WRITERS).join("|")} VARIANT N C REPS DIR`);
  process.exit(2);
}
try {
  const values = benchValues(Number(n));
  const seconds = await WRITERS[writer]({ dir, n: Number(n), c: Number(c), variant: byName(name), values, reps: Number(reps), workers: Number(workers) });
  console.log(JSON.stringify(seconds));
} catch (error) {
  const cause = error.cause ? ` (${error.cause.message ?? error.cause})` : "";
  console.error(`write-child: ${error.message}${cause}`.replaceAll("\n", " "));
  process.exit(1);
}
