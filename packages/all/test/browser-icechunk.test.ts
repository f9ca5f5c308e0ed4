/**
 * Icechunk in a real browser: Debian's chromium driven by playwright-core (never a browser
 * download) loads a page bundled with esbuild that opens Icechunk's own read-compatibility
 * repositories (spec versions 1 and 2) over HTTP from a local server with Range support,
 * with @zarr/store-icechunk on @zarr/store-http, and reads them on every branch and tag.
 * What it reads must be what Icechunk's test_can_read_old.py expects (the statement of it
 * in packages/store-icechunk/test/expected.ts, which the Node fixture tests use too).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixturesDir, haveChromium, launchChromium, skipWithout } from "../../../scripts/test-env.mjs";
import {
  ARRAY_ATTRS,
  BRANCH_HISTORY,
  BRANCHES,
  GROUP_ATTRS,
  MAIN_HISTORY,
  SNAPSHOT_VALUES,
  TAGS,
  VIRTUAL_CONTAINER,
  VIRTUAL_LOCATION,
} from "../../store-icechunk/test/expected.js";
import { bundlePage, runInPage, tearDown } from "./browser/harness.js";
import type { RepoReport } from "./browser/icechunk-page.js";
import { startServer } from "./browser/serve.js";

const missing = skipWithout(haveChromium(), "Debian's chromium (/usr/bin/chromium)");

/** The history each branch and tag the page reads has, head first. */
const HISTORY: Record<string, string[]> = {
  '{"branch":"main"}': MAIN_HISTORY,
  '{"branch":"my-branch"}': BRANCH_HISTORY,
  '{"tag":"it works!"}': BRANCH_HISTORY.slice(1),
  '{"tag":"it also works!"}': BRANCH_HISTORY,
};

describe.skipIf(missing)("Icechunk repositories over HTTP in chromium", () => {
  let dir: string;
  let server: { url: string; close(): Promise<void> };
  let browser: Browser | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "zarr-browser-icechunk-"));
    await bundlePage(dir, { "icechunk-page": join(import.meta.dirname, "browser", "icechunk-page.ts") }, "icechunk-page");
    // The fixture repositories as they are on disk, under /data/.
    server = await startServer(dir, join(fixturesDir(), "icechunk"));
    browser = await launchChromium();
  }, 120_000);

  afterAll(() => tearDown(browser, server, dir));

  async function read(repo: string): Promise<{ report: RepoReport; errors: string[] }> {
    // A 404 is how a missing object looks over HTTP (the v1 tag tombstones); anything else is an error.
    const { result: report, errors } = await runInPage(
      browser as Browser,
      server.url,
      "readIcechunk",
      (page) => page.evaluate((url) => (globalThis as unknown as { readIcechunk(u: string): Promise<RepoReport> }).readIcechunk(url), `${server.url}data/${repo}/`),
      { allowStatus: [404] },
    );
    return { report, errors };
  }

  for (const repo of ["test-repo-v1", "test-repo-v2"]) {
    it(`reads ${repo} on every branch and tag as test_can_read_old.py expects`, async () => {
      const { report, errors } = await read(repo);
      expect(errors).toEqual([]);
      expect(report.specVersion).toBe(repo.endsWith("v1") ? 1 : 2);
      if (report.specVersion === 2) {
        expect(report.branches).toEqual(BRANCHES);
        expect(report.tags).toEqual(TAGS);
      }
      expect(report.versions.map((v) => JSON.stringify(v.version))).toEqual(Object.keys(HISTORY));
      for (const v of report.versions) {
        const at = JSON.stringify(v.version);
        expect(v.history, at).toEqual(HISTORY[at]);
        const want = SNAPSHOT_VALUES[v.history[0]];
        expect(v.small, at).toEqual(want.small.map(String));
        expect(v.big, at).toEqual(new Array(100).fill(String(want.big)));
        expect(v.groupAttributes, at).toEqual(GROUP_ATTRS);
        expect(v.arrayAttributes, at).toEqual(ARRAY_ATTRS);
      }
      // The virtual chunk is not fetched without its container: a coded error naming it.
      expect(report.virtualError.code).toBe("UNSUPPORTED");
      expect(report.virtualError.message).toContain(JSON.stringify(VIRTUAL_CONTAINER));
      expect(report.virtualError.message).toContain(VIRTUAL_LOCATION);
    }, 120_000);
  }
});
