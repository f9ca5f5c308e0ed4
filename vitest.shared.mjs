// Shared vitest settings: resolve workspace packages to their TypeScript sources
// (the "@zarr/source" export condition) so tests never run against a stale dist/.
import path from "node:path";
import { defineConfig } from "vitest/config";

// Each run gets its own TMPDIR and fails when a test leaves files there (scripts/vitest-tmpdir.mjs).
const tmpdirSetup = path.join(import.meta.dirname, "scripts", "vitest-tmpdir.mjs");

export function zarrVitestConfig(overrides = {}) {
  return defineConfig({
    resolve: { conditions: ["@zarr/source", "node", "import", "default"] },
    ssr: { resolve: { conditions: ["@zarr/source", "node", "import", "default"] } },
    test: {
      include: ["test/**/*.test.ts"],
      testTimeout: 60_000,
      hookTimeout: 120_000,
      globalSetup: [tmpdirSetup],
      ...overrides,
    },
  });
}
