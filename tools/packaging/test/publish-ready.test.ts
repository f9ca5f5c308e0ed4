/**
 * Would the packages install correctly from the npm registry? publint, arethetypeswrong and
 * a tarball content check on every package (scripts/check-packages.mjs), the registry
 * fields of every package.json (scripts/package-metadata.mjs), and the install route the
 * root README gives until the packages are published: pack from the clone, install the
 * tarballs together with npm in a fresh directory, run the README's tour there.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without types
import { checkPackages, contentProblems, exportTargets } from "../../../scripts/check-packages.mjs";

const root = path.resolve(import.meta.dirname, "../../..");
const scratch = mkdtempSync(path.join(tmpdir(), "zarr-publish-ready-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the tarball content check", () => {
  const manifest = { exports: { ".": { "@zarr/source": "./src/index.ts", types: "./dist/index.d.ts", default: "./dist/index.js" }, "./package.json": "./package.json" } };

  it("collects every file the exports map names", () => {
    expect(exportTargets(manifest)).toEqual(["dist/index.d.ts", "dist/index.js", "package.json", "src/index.ts"]);
  });

  it("accepts a complete tarball", () => {
    expect(contentProblems(["package.json", "README.md", "LICENSE", "dist/index.js", "dist/index.d.ts", "src/index.ts"], manifest)).toEqual([]);
  });

  it("names a missing export target, a missing LICENSE and shipped tests", () => {
    const problems = contentProblems(["package.json", "README.md", "dist/index.js", "src/index.ts", "test/a.test.ts", "src/b.test.ts", "test-data/x.json"], manifest);
    expect(problems).toEqual([
      "missing LICENSE",
      "exports names dist/index.d.ts, which is not in the tarball",
      "ships test file test/a.test.ts",
      "ships test file src/b.test.ts",
      "ships test file test-data/x.json",
    ]);
  });
});

describe("every package is publish-ready", () => {
  it("has the registry fields scripts/package-metadata.mjs sets", () => {
    execFileSync("node", [path.join(root, "scripts/package-metadata.mjs"), "--check"], { stdio: ["ignore", "pipe", "pipe"] });
    for (const dir of ["core", "store-fs"]) {
      const m = JSON.parse(readFileSync(path.join(root, "packages", dir, "package.json"), "utf8"));
      expect(m.repository.directory).toBe(`packages/${dir}`);
      expect(m.keywords).toContain("zarr");
      expect(m.publishConfig.access).toBe("public");
    }
  });

  it("passes publint, arethetypeswrong (esm-only) and the content check", { timeout: 240_000 }, async () => {
    const results: Map<string, string[]> = await checkPackages([]);
    expect(results.size).toBeGreaterThanOrEqual(21);
    const failures = Object.fromEntries([...results].filter(([, p]) => p.length > 0));
    expect(failures).toEqual({});
  });
});

describe("the README's install route from a clone", () => {
  it("packs @zarr/core and @zarr/store-fs with their chain and installs them together with npm", { timeout: 120_000 }, () => {
    const readme = readFileSync(path.join(root, "README.md"), "utf8");
    expect(readme).toContain("node scripts/pack-all.mjs --out ../zarr-tarballs @zarr/core @zarr/store-fs");
    expect(readme).toContain("npm install ../zarr-tarballs/*.tgz");
    const clone = path.join(scratch, "zarr");
    const app = path.join(scratch, "my-app");
    const tarballs = path.join(scratch, "zarr-tarballs");
    execFileSync("node", [path.join(root, "scripts/pack-all.mjs"), "--out", tarballs, "@zarr/core", "@zarr/store-fs"], { cwd: root, stdio: "pipe" });
    execFileSync("mkdir", ["-p", clone, app]);
    writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: "my-app", private: true, type: "module" }));
    // As the README writes it, from the app directory next to the tarballs (offline: the chain has no outside dependency).
    execFileSync("sh", ["-c", "npm install --offline --no-audit --no-fund ../zarr-tarballs/*.tgz"], { cwd: app, stdio: "pipe" });
    const installed = JSON.parse(readFileSync(path.join(app, "package.json"), "utf8")).dependencies;
    expect(Object.keys(installed).sort()).toEqual(["@zarr/core", "@zarr/spec", "@zarr/store-fs"]);
    writeFileSync(
      path.join(app, "tour.mjs"),
      `import { createArray, get, open, set, slice } from "@zarr/core";
import { FileSystemStore } from "@zarr/store-fs";
const store = new FileSystemStore("climate.zarr");
const t2m = await createArray(store, "t2m", { shape: [3, 4], chunkShape: [2, 2], dataType: "float32", fillValue: NaN, dimensionNames: ["lat", "lon"] });
await set(t2m, [0, null], new Float32Array([1, 2, 3, 4]));
const node = await open(store, "t2m");
const r = await get(node, [slice(0, 2), slice(null, null, 2)]);
console.log(JSON.stringify({ shape: r.shape, data: Array.from(r.data, (x) => (Number.isNaN(x) ? "NaN" : x)) }));
`,
    );
    const out = execFileSync("node", ["tour.mjs"], { cwd: app, encoding: "utf8" });
    expect(JSON.parse(out)).toEqual({ shape: [2, 2], data: [1, 3, "NaN", "NaN"] });
  });
});

describe("the release workflow", () => {
  const file = path.join(root, ".github/workflows/release.yml");

  it("is a valid GitHub Actions workflow (action-validator, the workflow JSON schema)", () => {
    execFileSync(path.join(root, "node_modules/.bin/action-validator"), [file], { stdio: "pipe" });
  });

  it("rejects a broken workflow (the validator can fail)", () => {
    const bad = path.join(scratch, "bad.yml");
    writeFileSync(bad, readFileSync(file, "utf8").replace("runs-on:", "runs-onn:"));
    expect(() => execFileSync(path.join(root, "node_modules/.bin/action-validator"), [bad], { stdio: "pipe" })).toThrow();
  });

  it("publishes with changesets, npm provenance and the OIDC permission provenance needs", () => {
    const text = readFileSync(file, "utf8");
    expect(text).toContain("uses: changesets/action@v1");
    expect(text).toContain("publish: pnpm changeset publish");
    expect(text).toContain('NPM_CONFIG_PROVENANCE: "true"');
    expect(text).toMatch(/permissions:[\s\S]*id-token: write/);
    expect(text).toContain("node scripts/check-packages.mjs");
  });
});
