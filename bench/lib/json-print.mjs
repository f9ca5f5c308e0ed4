// The yardstick of bench/huge-metadata.mjs: what printing a metadata document's
// attributes costs Node itself. Reads the file, `JSON.parse`s it and writes its
// `attributes` (or the whole document when it has none) as JSON to standard output.
//
//   node bench/lib/json-print.mjs FILE
import { readFileSync } from "node:fs";

const doc = JSON.parse(readFileSync(process.argv[2], "utf8"));
process.stdout.write(`${JSON.stringify(doc.attributes ?? doc)}\n`);
