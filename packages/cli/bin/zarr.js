#!/usr/bin/env node
// The `zarr` command. Run `pnpm build` first (tsc into dist/, then the bundle).
import { existsSync } from "node:fs";
import module from "node:module";

// Node ≥ 22.1 can keep compiled code between runs; Node 20 has no such cache.
module.enableCompileCache?.();

const argv = process.argv.slice(2);
// The bundle (dist/bundle/) starts several times faster than loading the modules one by
// one: `info` and `tree`, which read metadata only, from its smaller entry.
const entry = argv[0] === "info" || argv[0] === "tree" ? "metadata-main.js" : "commands/main.js";
const bundle = new URL(`../dist/bundle/${entry}`, import.meta.url);
const { run } = await (existsSync(bundle) ? import(bundle.href) : import("../dist/main.js"));
await run(argv);
