#!/usr/bin/env node
// `pnpm run docs`: builds the documentation site into docs/dist/ (open docs/dist/index.html).
// `--out DIR` builds elsewhere; `--no-api` skips the API reference (a quick look at guides).
import path from "node:path";
import { parseArgs } from "node:util";
import { buildDocs } from "./lib/site.mjs";

const { values } = parseArgs({ options: { out: { type: "string" }, "no-api": { type: "boolean" } } });
const started = performance.now();
const result = await buildDocs({ out: values.out && path.resolve(values.out), api: !values["no-api"] });
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(`docs: ${result.pages} pages and ${result.modules.length} API modules in ${seconds} s → ${path.join(result.out, "index.html")}`);
