// Shared vitest settings: resolve workspace packages to their TypeScript sources
// (the "@zarr/source" export condition) so tests never run against a stale dist/.
import { defineConfig } from "vitest/config";

export function zarrVitestConfig(overrides = {}) {
  return defineConfig({
    resolve: { conditions: ["@zarr/source", "node", "import", "default"] },
    ssr: { resolve: { conditions: ["@zarr/source", "node", "import", "default"] } },
    test: {
      include: ["test/**/*.test.ts"],
      testTimeout: 60_000,
      hookTimeout: 120_000,
      ...overrides,
    },
  });
}
