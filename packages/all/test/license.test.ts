/**
 * Every published package ships the licence text its package.json names: a LICENSE file
 * identical to the repository's, listed in what `npm pack` would put in the tarball.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../../..");
const rootLicense = readFileSync(path.join(root, "LICENSE"), "utf8");
const packages = readdirSync(path.join(root, "packages")).sort();

describe("licence", () => {
  it("the root LICENSE is the MIT licence every package.json names", () => {
    expect(rootLicense).toMatch(/^MIT License\n/);
    for (const name of packages) {
      const manifest = JSON.parse(readFileSync(path.join(root, "packages", name, "package.json"), "utf8"));
      expect(manifest.license, name).toBe("MIT");
    }
  });

  it.each(packages)("%s has the root LICENSE and packs it", (name) => {
    const dir = path.join(root, "packages", name);
    expect(readFileSync(path.join(dir, "LICENSE"), "utf8")).toBe(rootLicense);
    const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
      cwd: dir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    const files = (JSON.parse(out) as Array<{ files: Array<{ path: string }> }>)[0].files.map((f) => f.path);
    expect(files).toContain("LICENSE");
  });
});
