/**
 * The public types as a user sees them: tsc compiles test/types/usage.ts (expected uses,
 * and with `@ts-expect-error` uses that must not compile) against the built package's
 * .d.ts files, under `node16` and `bundler` module resolution. Any error fails the test.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const here = join(import.meta.dirname, "types");
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

/** tsc's output for `tsconfig` ("" when it compiles cleanly). */
function typeErrors(tsconfig: string): string {
  try {
    execFileSync(process.execPath, [tsc, "-p", join(here, tsconfig)], { encoding: "utf8", stdio: "pipe" });
    return "";
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    return `${e.stdout ?? ""}${e.stderr ?? ""}` || e.message;
  }
}

describe("public types (test/types/usage.ts against dist)", () => {
  it("the package is built (the check reads dist/*.d.ts)", () => {
    expect(existsSync(join(import.meta.dirname, "..", "dist", "index.d.ts"))).toBe(true);
  });
  for (const resolution of ["node16", "bundler"]) {
    it(`type-checks under ${resolution} module resolution`, { timeout: 120_000 }, () => {
      expect(typeErrors(`tsconfig.${resolution}.json`)).toBe("");
    });
  }
});
