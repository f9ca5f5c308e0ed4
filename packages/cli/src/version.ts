/** The version of @zarr/cli, for `zarr --version`. */
import { readFileSync } from "node:fs";

/**
 * The `version` of the @zarr/cli package.json above this module (found by walking up, so
 * it works from `src/`, `dist/` and the bundles in `dist/bundle/`), or `"unknown"`.
 *
 * @example
 * ```ts
 * cliVersion(); // "0.1.0"
 * ```
 */
export function cliVersion(): string {
  for (let url = new URL("./package.json", import.meta.url), i = 0; i < 4; url = new URL("../package.json", url), i++) {
    try {
      const pkg = JSON.parse(readFileSync(url, "utf8")) as { name?: string; version?: string };
      if (pkg.name === "@zarr/cli") return pkg.version ?? "unknown";
    } catch {
      // not here: one directory up
    }
  }
  return "unknown";
}
