#!/usr/bin/env node
// The `zarr` command. Run `pnpm build` first (tsc into dist/, then the metadata bundle).
import { existsSync } from "node:fs";
import module from "node:module";

// Node ≥ 22.1 can keep compiled code between runs; Node 20 has no such cache.
module.enableCompileCache?.();

const argv = process.argv.slice(2);
// `info` and `tree` read metadata only: their bundle (dist/bundle/) starts several times
// faster than loading the modules one by one. Everything else: dist/main.js.
const bundle = new URL("../dist/bundle/metadata-main.js", import.meta.url);
const { run } = await ((argv[0] === "info" || argv[0] === "tree") && existsSync(bundle)
  ? import(bundle.href)
  : import("../dist/main.js"));
await run(argv);
