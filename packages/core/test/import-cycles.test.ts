/** Core's modules import each other without a cycle (type-only imports included). */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const SCRIPT = join(import.meta.dirname, "../../../scripts/import-cycles.mjs");

function run(...packages: string[]) {
  const r = spawnSync(process.execPath, [SCRIPT, ...packages], { encoding: "utf8" });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A throwaway package whose src/ holds `files`. */
function fakePackage(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "import-cycles-"));
  made.push(dir);
  mkdirSync(join(dir, "src", "sub"), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, "src", name), text);
  return dir;
}

describe("import cycles", () => {
  it("@zarr/core has none", () => {
    const r = run(join(import.meta.dirname, ".."));
    expect(r.out).toContain("no import cycles");
    expect(r.status).toBe(0);
  });

  it("the checker finds a cycle made only of type imports and export-from, across folders", () => {
    const pkg = fakePackage({
      "a.ts": 'import type { B } from "./b.js";\nexport type A = B[];\n',
      "b.ts": 'export { c } from "./sub/index.js";\nexport type B = number;\n',
      "sub/index.ts": 'import type { A } from "../a.js";\nexport const c: A = [];\n',
      "d.ts": 'import { c } from "./sub/index.js";\nexport const d = c;\n',
    });
    const r = run(pkg);
    expect(r.status).toBe(1);
    expect(r.out).toMatch(/import cycle a\.ts -> b\.ts -> sub\/index\.ts -> a\.ts/);
    expect(r.out).toContain("modules in the circle: a.ts, b.ts, sub/index.ts\n");
  });

  it("ignores imports written in comments and package imports", () => {
    const pkg = fakePackage({
      "a.ts": '/**\n * import { b } from "./b.js";\n */\nimport { x } from "@zarr/spec";\nexport const a = x;\n',
      "b.ts": 'import { a } from "./a.js";\nexport const b = a;\n',
    });
    const r = run(pkg);
    expect(r.out).toContain("no import cycles");
    expect(r.status).toBe(0);
  });
});
