#!/usr/bin/env node
/**
 * Would every package install and resolve correctly from the npm registry? For each
 * package: `pnpm pack`, then on the tarball
 *  - publint (strict: warnings count; suggestions are printed, not failures),
 *  - @arethetypeswrong/cli with the esm-only profile (the packages are ESM only: node16
 *    from ESM and bundler resolution must resolve every export with types),
 *  - the tarball's contents: package.json, README.md, LICENSE, every file an `exports`
 *    condition names, and no tests, fixtures, test data or `workspace:` ranges.
 *
 *   node scripts/check-packages.mjs [@zarr/name ...]   # build first (pnpm build)
 *
 * Exits 1 with the problems listed; packages/all/test/publish-ready.test.ts runs it in CI.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import { packPackages, workspacePackages } from "./pack-all.mjs";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "..");
const attwBin = path.join(root, "node_modules", ".bin", "attw");

/** Every file path an `exports` map (or main/types) points at, relative to the package root. */
export function exportTargets(manifest) {
  const out = new Set();
  const walk = (v) => {
    if (typeof v === "string") {
      if (!v.includes("*")) out.add(v.replace(/^\.\//, ""));
    } else if (v !== null && typeof v === "object") for (const x of Object.values(v)) walk(x);
  };
  walk(manifest.exports);
  for (const k of ["main", "types", "module", "browser"]) if (typeof manifest[k] === "string") walk(manifest[k]);
  return [...out].sort();
}

/** Problems with a tarball's file list (paths relative to the package root). */
export function contentProblems(files, manifest) {
  const problems = [];
  const have = new Set(files);
  for (const f of ["package.json", "README.md", "LICENSE"]) if (!have.has(f)) problems.push(`missing ${f}`);
  for (const t of exportTargets(manifest)) if (!have.has(t)) problems.push(`exports names ${t}, which is not in the tarball`);
  for (const f of files) {
    if (/(^|\/)(test|tests|__tests__|fixtures|test-data)\//.test(f) || /\.(test|spec)\.[cm]?[jt]sx?$/.test(f)) problems.push(`ships test file ${f}`);
    if (/\.tsbuildinfo$/.test(f)) problems.push(`ships build cache ${f}`);
  }
  return problems;
}

async function tarballFiles(tarball) {
  const { stdout } = await run("tar", ["-tzf", tarball], { maxBuffer: 64 << 20 });
  return stdout
    .split("\n")
    .filter((l) => l !== "" && !l.endsWith("/"))
    .map((l) => l.replace(/^package\//, ""));
}

async function packedManifest(tarball) {
  const { stdout } = await run("tar", ["-xzOf", tarball, "package/package.json"]);
  return JSON.parse(stdout);
}

/** All problems of one packed package: publint, attw, contents. */
export async function checkTarball(tarball, pkgDir) {
  const problems = [];
  const manifest = await packedManifest(tarball);
  const deps = { ...manifest.dependencies, ...manifest.peerDependencies, ...manifest.optionalDependencies };
  for (const [d, range] of Object.entries(deps)) if (String(range).startsWith("workspace:")) problems.push(`dependency ${d} keeps the range ${range}`);
  problems.push(...contentProblems(await tarballFiles(tarball), manifest));

  const data = readFileSync(tarball);
  const lint = await publint({ pack: { tarball: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) }, strict: true, level: "warning" });
  for (const m of lint.messages) problems.push(`publint ${m.type}: ${formatMessage(m, lint.pkg) ?? m.code}`);

  try {
    await run(attwBin, [tarball, "--profile", "esm-only", "--format", "ascii", "--no-emoji", "--no-color"], { maxBuffer: 16 << 20 });
  } catch (e) {
    problems.push(`attw (esm-only profile) found problems:\n${e.stdout ?? e.message}`);
  }
  return problems;
}

/** Packs and checks the named packages (all by default); returns name → problems. */
export async function checkPackages(names) {
  const packages = workspacePackages(root);
  const selected = names.length > 0 ? names : [...packages.keys()];
  const dir = mkdtempSync(path.join(tmpdir(), "zarr-pack-check-"));
  try {
    const tarballs = packPackages(packages, selected, dir);
    const results = new Map();
    // Two at a time: attw and publint are CPU-bound.
    let next = 0;
    const worker = async () => {
      while (next < selected.length) {
        const i = next++;
        results.set(selected[i], await checkTarball(tarballs[i], packages.get(selected[i]).dir));
      }
    };
    await Promise.all([worker(), worker()]);
    return new Map(selected.map((n) => [n, results.get(n)]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const results = await checkPackages(process.argv.slice(2));
  let bad = 0;
  for (const [name, problems] of results) {
    console.log(`${problems.length === 0 ? "ok  " : "FAIL"} ${name}`);
    for (const p of problems) console.log(`       ${p.replace(/\n/g, "\n       ")}`);
    if (problems.length > 0) bad++;
  }
  if (bad > 0) process.exit(1);
}
