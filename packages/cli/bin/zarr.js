#!/usr/bin/env node
// The `zarr` command. Run `pnpm build` (or `tsc -p tsconfig.build.json`) first.
import { run } from "../dist/main.js";

await run(process.argv.slice(2));
