#!/usr/bin/env node
/**
 * Packs @zarr packages into tarballs that install together, the route to use until the
 * packages are on npm. `pnpm pack` turns each `workspace:*` dependency into the package's
 * version, so npm must be given every @zarr tarball in the dependency chain at once (given
 * one, it would look the others up in the registry). This script packs exactly that chain.
 *
 *   node scripts/pack-all.mjs --out /tmp/zarr-tarballs                      # every package
 *   node scripts/pack-all.mjs --out /tmp/zarr-tarballs @zarr/core @zarr/store-fs
 *
 * It prints the `npm install` command for the packed set. Build first (`pnpm build`).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** name → { dir, manifest } for every package under packages/. */
export function workspacePackages(root) {
  const out = new Map();
  for (const dir of readdirSync(path.join(root, "packages")).sort()) {
    const manifest = JSON.parse(readFileSync(path.join(root, "packages", dir, "package.json"), "utf8"));
    if (!manifest.private) out.set(manifest.name, { dir: path.join(root, "packages", dir), manifest });
  }
  return out;
}

/** `names` and every @zarr package they depend on (dependencies and peerDependencies), sorted. */
export function dependencyClosure(packages, names) {
  const seen = new Set();
  const visit = (name) => {
    if (seen.has(name)) return;
    const pkg = packages.get(name);
    if (pkg === undefined) throw new Error(`no package ${name} in packages/ (known: ${[...packages.keys()].join(", ")})`);
    seen.add(name);
    const deps = { ...pkg.manifest.dependencies, ...pkg.manifest.peerDependencies };
    for (const dep of Object.keys(deps)) if (packages.has(dep)) visit(dep);
  };
  for (const n of names) visit(n);
  return [...seen].sort();
}

/** Packs each named package into `outDir` with `pnpm pack`; returns the tarball paths in the same order. */
export function packPackages(packages, names, outDir) {
  mkdirSync(outDir, { recursive: true });
  return names.map((name) => {
    const out = execFileSync("pnpm", ["pack", "--pack-destination", outDir], { cwd: packages.get(name).dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    const tarball = out.trim().split("\n").filter((l) => l.endsWith(".tgz")).pop();
    if (tarball === undefined) throw new Error(`pnpm pack printed no tarball for ${name}:\n${out}`);
    return path.isAbsolute(tarball) ? tarball : path.join(outDir, path.basename(tarball));
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = path.resolve(import.meta.dirname, "..");
  const args = process.argv.slice(2);
  const at = args.indexOf("--out");
  const outDir = path.resolve(at >= 0 ? args.splice(at, 2)[1] : path.join(root, "dist-tarballs"));
  const packages = workspacePackages(root);
  const names = dependencyClosure(packages, args.length > 0 ? args : [...packages.keys()]);
  const tarballs = packPackages(packages, names, outDir);
  console.log(`packed ${tarballs.length} package(s) into ${outDir}:`);
  for (const t of tarballs) console.log(`  ${path.basename(t)}`);
  console.log(`\ninstall them together in your project:\n  npm install ${tarballs.map((t) => JSON.stringify(t)).join(" ")}`);
}
