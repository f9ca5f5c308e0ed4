/**
 * Builds the CLI and the workspace packages it imports at run time (their dist/) when
 * a dist/ is missing or older than its sources, then the metadata bundle (dist/bundle/)
 * when it is missing or older than any package's dist/, so the subprocess tests never
 * run a stale `zarr`. Under `pnpm test`, turbo has already built them and this does
 * nothing.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const packagesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const tsc = path.resolve(packagesDir, "../node_modules/typescript/bin/tsc");
/** In dependency order. */
const PACKAGES = ["spec", "core", "store-fs", "store-zip", "codec-zstd", "store-icechunk", "store-utils", "v2-compat", "all", "cli"];

function newestMtime(dir: string, skip?: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (p === skip) continue;
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p, skip) : statSync(p).mtimeMs);
  }
  return newest;
}

/** Bundles `info`/`tree` (build/bundle.mjs) unless dist/bundle/ is newer than every package's dist/ and the script. */
function bundle(): void {
  const cli = path.join(packagesDir, "cli");
  const bundleDir = path.join(cli, "dist", "bundle");
  const marker = path.join(bundleDir, "metadata-main.js");
  if (existsSync(marker)) {
    const built = statSync(marker).mtimeMs;
    const dists = readdirSync(packagesDir)
      .map((name) => path.join(packagesDir, name, "dist"))
      .filter((dir) => existsSync(dir));
    dists.push(path.join(cli, "build"));
    if (dists.every((dir) => newestMtime(dir, bundleDir) <= built)) return;
  }
  execFileSync(process.execPath, [path.join(cli, "build", "bundle.mjs")], { cwd: cli, stdio: "pipe" });
}

export default function setup(): void {
  for (const name of PACKAGES) {
    const dir = path.join(packagesDir, name);
    const marker = path.join(dir, "dist", "index.js");
    const sources = Math.max(newestMtime(path.join(dir, "src")), statSync(path.join(dir, "package.json")).mtimeMs);
    if (existsSync(marker) && statSync(marker).mtimeMs >= sources) continue;
    try {
      execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: dir, stdio: "pipe" });
    } catch (error) {
      const out = (error as { stdout?: Buffer }).stdout?.toString() ?? "";
      // A package another engineer is editing may not compile right now: use its last build.
      if (name !== "cli" && existsSync(marker)) {
        console.warn(`global-setup: could not rebuild @zarr/${name}, using its existing dist/\n${out}`);
        continue;
      }
      throw new Error(`Building @zarr/${name} failed:\n${out}`);
    }
  }
  bundle();
}
