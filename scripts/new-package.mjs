#!/usr/bin/env node
// Creates the skeleton of a workspace package: node scripts/new-package.mjs <dir> "<description>" [dep ...]
// Dependencies starting with @zarr/ are linked with workspace:*.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const [dir, description, ...deps] = process.argv.slice(2);
if (!dir || !description) {
  console.error('usage: node scripts/new-package.mjs <dir> "<description>" [dep ...]');
  process.exit(2);
}
const root = join(import.meta.dirname, "..", "packages", dir);
mkdirSync(join(root, "src"), { recursive: true });
mkdirSync(join(root, "test"), { recursive: true });
const dependencies = Object.fromEntries(
  deps.map((d) => {
    const at = d.lastIndexOf("@");
    if (d.startsWith("@zarr/")) return [d, "workspace:*"];
    return at > 0 ? [d.slice(0, at), d.slice(at + 1)] : [d, "*"];
  }),
);
const pkg = {
  name: `@zarr/${dir}`,
  version: "0.1.0",
  description,
  license: "MIT",
  type: "module",
  sideEffects: false,
  main: "./dist/index.js",
  types: "./dist/index.d.ts",
  exports: {
    ".": { "@zarr/source": "./src/index.ts", types: "./dist/index.d.ts", default: "./dist/index.js" },
    "./package.json": "./package.json",
  },
  files: ["dist", "src", "README.md"],
  engines: { node: ">=20" },
  scripts: {
    build: "tsc -p tsconfig.build.json",
    typecheck: "tsc -p tsconfig.json --noEmit",
    lint: "biome lint src test",
    test: "vitest run",
  },
  dependencies,
};
const write = (name, text) => {
  const p = join(root, name);
  if (!existsSync(p)) writeFileSync(p, text);
};
write("package.json", `${JSON.stringify(pkg, null, 2)}\n`);
write(
  "tsconfig.json",
  `${JSON.stringify({ extends: "../../tsconfig.base.json", compilerOptions: { customConditions: ["@zarr/source"], noEmit: true }, include: ["src", "test"] }, null, 2)}\n`,
);
write(
  "tsconfig.build.json",
  `${JSON.stringify({ extends: "../../tsconfig.base.json", compilerOptions: { rootDir: "src", outDir: "dist" }, include: ["src"] }, null, 2)}\n`,
);
write("vitest.config.mjs", 'import { zarrVitestConfig } from "../../vitest.shared.mjs";\nexport default zarrVitestConfig();\n');
console.log(`created packages/${dir}`);
