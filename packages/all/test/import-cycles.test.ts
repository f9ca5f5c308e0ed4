/**
 * No package of the monorepo has an import cycle between its modules (type-only imports
 * included): scripts/import-cycles.mjs over every packages/<name>/src.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../../..");

it("every package's modules import each other without a cycle", () => {
  const r = spawnSync(process.execPath, [join(ROOT, "scripts/import-cycles.mjs")], { encoding: "utf8" });
  const out = `${r.stdout}${r.stderr}`;
  // Printed cycles make the failure message name the modules.
  expect(out).toBe("no import cycles\n");
  expect(r.status).toBe(0);
});

