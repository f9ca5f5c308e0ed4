// What the Chromium tests share: bundling a test page for the browser, opening it and
// collecting what went wrong there, and tearing the set-up down.
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build, type Plugin } from "esbuild";
import type { Browser, Page } from "playwright-core";

/**
 * Bundles `entryPoints` (output name → source) for the browser into `outdir`, from the
 * workspace packages' sources, and writes an `index.html` that loads `page` as a module.
 */
export async function bundlePage(outdir: string, entryPoints: Record<string, string>, page: string, options: { splitting?: boolean; plugins?: Plugin[] } = {}): Promise<void> {
  await build({
    entryPoints,
    outdir,
    bundle: true,
    splitting: options.splitting ?? false,
    format: "esm",
    platform: "browser",
    target: "es2022",
    // Workspace packages' sources; platform "browser" selects their browser builds (e.g. @zarr/core/workers' Web Worker pool).
    conditions: ["@zarr/source"],
    logLevel: "warning",
    plugins: options.plugins ?? [],
  });
  writeFileSync(join(outdir, "index.html"), `<!doctype html><meta charset="utf-8"><title>${page}</title><link rel="icon" href="data:,"><script type="module" src="./${page}.js"></script>\n`);
}

/** What counts as an error in a page besides uncaught exceptions. */
export interface PageErrorRules {
  /** HTTP statuses ≥ 400 that are expected (e.g. 404, how a missing object looks over HTTP). */
  allowStatus?: number[];
  /** Messages the page logs with `console.error` count as errors. */
  consoleErrors?: boolean;
}

/**
 * Opens `url` in a new page of `browser`, waits until the page has set `ready` on
 * `globalThis`, runs `call` and closes the page. Returns what `call` returned with the
 * page's errors: uncaught exceptions, failed responses, and console errors if asked.
 */
export async function runInPage<T>(browser: Browser, url: string, ready: string, call: (page: Page) => Promise<T>, rules: PageErrorRules = {}): Promise<{ result: T; errors: string[] }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e: Error) => errors.push(e.message));
  if (rules.consoleErrors === true) {
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
  }
  page.on("response", (r) => {
    if (r.status() >= 400 && !(rules.allowStatus ?? []).includes(r.status())) errors.push(`${r.status()} ${r.url()}`);
  });
  try {
    await page.goto(url);
    await page.waitForFunction((name) => name in globalThis, ready, { timeout: 30_000 });
    return { result: await call(page), errors };
  } finally {
    await page.close();
  }
}

/** Closes what a browser test's `beforeAll` set up; any of them may be missing if it failed. */
export async function tearDown(browser: Browser | undefined, server: { close(): Promise<void> } | undefined, dir: string | undefined): Promise<void> {
  await browser?.close();
  await server?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
}
