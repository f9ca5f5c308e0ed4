/**
 * The public types as a user sees them: tsc compiles test/types/usage.ts (expected uses,
 * and with `@ts-expect-error` uses that must not compile) and the README's
 * ```ts readme-types blocks against the built package's .d.ts files, under `node16` and
 * `bundler` module resolution. Any error fails the test.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const here = join(import.meta.dirname, "types");
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const readme = readFileSync(join(import.meta.dirname, "..", "README.md"), "utf8");
const readmeBlocks = [...readme.matchAll(/```ts readme-types\n([\s\S]*?)```/g)].map((m) => m[1]);

/**
 * tsc's output for usage.ts and the README blocks under `tsconfig.<resolution>.json`
 * ("" when they compile cleanly). The blocks are written next to usage.ts (so
 * "@zarr/core" resolves to this package, as it would for a user) and removed after.
 */
function typeErrors(resolution: string): string {
  const tag = `${process.pid}-${resolution}`;
  const blocks = readmeBlocks.map((code, i) => {
    const file = `.readme-${tag}-${i}.ts`;
    writeFileSync(join(here, file), code);
    return file;
  });
  const config = join(here, `.tsconfig-${tag}.json`);
  writeFileSync(config, JSON.stringify({ extends: `./tsconfig.${resolution}.json`, files: ["usage.ts", ...blocks] }));
  try {
    execFileSync(process.execPath, [tsc, "-p", config], { encoding: "utf8", stdio: "pipe" });
    return "";
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    return `${e.stdout ?? ""}${e.stderr ?? ""}` || e.message;
  } finally {
    for (const file of [config, ...blocks.map((b) => join(here, b))]) rmSync(file, { force: true });
  }
}

describe("public types (test/types/usage.ts and README blocks against dist)", () => {
  it("the package is built (the check reads dist/*.d.ts) and the README has a typed example", () => {
    expect(existsSync(join(import.meta.dirname, "..", "dist", "index.d.ts"))).toBe(true);
    expect(readmeBlocks.length).toBeGreaterThan(0);
  });
  for (const resolution of ["node16", "bundler"]) {
    it(`type-checks under ${resolution} module resolution`, { timeout: 120_000 }, () => {
      expect(typeErrors(resolution)).toBe("");
    });
  }
});
