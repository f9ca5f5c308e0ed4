// Runs the code blocks of a guide in order, in one scratch directory (so a block can read
// what an earlier one wrote), each as its own process: JS/TS as an ES module with Node
// (imports resolve through tools/docs/node_modules, i.e. the built workspace packages), sh
// with bash and the built `zarr` CLI first on PATH. A block followed by a ```text output
// block must print exactly that.
import { execFile } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { build, transformSync } from "esbuild";
import { codeBlocks, servedUrl, steps } from "./blocks.mjs";
import { repoRoot } from "./site.mjs";
import { serveDirectory } from "./static-server.mjs";

/** Debian's chromium, which runs the browser blocks that have an output block. */
export const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

// Asynchronous on purpose: the static server of a guide runs in this process.
const run = async (...args) => (await promisify(execFile)(...args)).stdout;
const docsPackage = path.resolve(import.meta.dirname, "..");

/** Trailing spaces and blank lines do not count when comparing outputs. */
export const normalizeOutput = (text) => text.replace(/[ \t]+$/gm, "").replace(/\s+$/, "");

/**
 * Runs every step of the Markdown guide `file`; resolves `[{ line, kind, output }]`.
 * Throws naming the guide and line when a block fails or prints something else than its
 * output block. The scratch directory is removed afterwards.
 */
export async function runGuide(file, { timeout = 120_000 } = {}) {
  const text = readFileSync(file, "utf8");
  const name = path.relative(repoRoot, file);
  const scratch = mkdtempSync(path.join(tmpdir(), "zarr-docs-"));
  const work = path.join(scratch, "work");
  const bin = path.join(scratch, "bin");
  mkdirSync(work);
  mkdirSync(bin);
  writeFileSync(path.join(bin, "zarr"), `#!/bin/sh\nexec "${process.execPath}" "${path.join(repoRoot, "packages/cli/bin/zarr.js")}" "$@"\n`);
  chmodSync(path.join(bin, "zarr"), 0o755);
  const url = servedUrl(text);
  const blockSteps = steps(codeBlocks(text), name);
  // Browser blocks with an output block run in chromium, on a page served with the data.
  const inBrowser = blockSteps.some((s) => s.block.kind === "browser" && s.expected !== undefined);
  const server = url === undefined && !inBrowser ? undefined : await serveDirectory(work);
  const browser = { instance: undefined };
  const results = [];
  try {
    for (const [index, { block, expected }] of blockSteps.entries()) {
      const where = `${name}:${block.line}`;
      const code = url === undefined ? block.code : block.code.replaceAll(url, server.url);
      let output;
      try {
        if (block.kind !== "browser") output = await runBlock(block.lang, code, { work, bin, scratch, timeout });
        else {
          const page = path.join(work, `.docs-browser-${index}`);
          await bundleForBrowser(code, page);
          output = expected === undefined ? "" : await runInChromium(browser, `${server.url}.docs-browser-${index}/index.html`, where);
        }
      } catch (error) {
        throw new Error(`${where}: the \`\`\`${block.info} block failed:\n${error.stderr || error.message}`);
      }
      if (output === undefined) {
        results.push({ line: block.line, kind: "skipped" });
        continue;
      }
      if (url !== undefined) output = output.replaceAll(server.url, url);
      if (expected !== undefined && normalizeOutput(output) !== normalizeOutput(expected)) {
        throw new Error(`${where}: the block printed\n${output}\ninstead of its output block\n${expected}`);
      }
      results.push({ line: block.line, kind: block.kind, output });
    }
  } finally {
    await browser.instance?.close();
    await server?.close();
    rmSync(scratch, { recursive: true, force: true });
  }
  return results;
}

/** Runs one block; resolves its standard output. */
async function runBlock(lang, code, { work, bin, scratch, timeout }) {
  const env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}`, NO_COLOR: "1" };
  if (lang === "sh") {
    return await run("bash", ["-euo", "pipefail", "-c", code], { cwd: work, env, encoding: "utf8", timeout, maxBuffer: 64 << 20 });
  }
  const js = lang === "ts" ? transformSync(code, { loader: "ts", format: "esm", target: "node20" }).code : code;
  // The module lives in tools/docs so that its imports resolve like a user's would.
  const file = path.join(docsPackage, `.docs-block-${process.pid}-${path.basename(scratch)}.mjs`);
  writeFileSync(file, js);
  try {
    return await run(process.execPath, [file], { cwd: work, env, encoding: "utf8", timeout, maxBuffer: 64 << 20 });
  } finally {
    rmSync(file, { force: true });
  }
}

/**
 * Bundles a browser block with esbuild for browsers (the "browser" export condition) into
 * `dir`, with an index.html that runs it; throws the bundler's errors.
 */
async function bundleForBrowser(code, dir) {
  const result = await build({
    stdin: { contents: code, resolveDir: docsPackage, sourcefile: "main.js", loader: "js" },
    bundle: true,
    platform: "browser",
    format: "esm",
    outdir: dir,
    entryNames: "main",
    splitting: true,
    logLevel: "silent",
  });
  if (result.errors.length > 0) throw new Error(result.errors.map((e) => e.text).join("\n"));
  writeFileSync(path.join(dir, "index.html"), '<!doctype html>\n<meta charset="utf-8">\n<link rel="icon" href="data:,">\n<pre id="out"></pre>\n<script type="module" src="main.js"></script>\n');
}

/**
 * Opens `url` in headless chromium and resolves the text the page puts into `#out`.
 * Uncaught errors and console errors fail the block. Without chromium: resolves
 * `undefined` (the block counts as skipped) outside CI, and fails under CI=true.
 */
async function runInChromium(browser, url, where) {
  if (!existsSync(CHROMIUM) || process.env.ZARR_TEST_NO_CHROMIUM) {
    if (process.env.CI) throw new Error(`${CHROMIUM} is needed to run browser blocks (CI=true)`);
    console.warn(`[skipped] ${where}: Debian's chromium is not installed here; the browser block was bundled, not run`);
    return undefined;
  }
  if (browser.instance === undefined) {
    const { chromium } = await import("playwright-core");
    browser.instance = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }
  const page = await browser.instance.newPage();
  // The first uncaught error or console error ends the wait at once.
  const failed = new Promise((_, reject) => {
    page.on("pageerror", (error) => reject(new Error(`the page threw: ${error.message}`)));
    page.on("console", (message) => message.type() === "error" && reject(new Error(`console error: ${message.text()}`)));
  });
  failed.catch(() => {});
  try {
    await page.goto(url);
    const written = page.waitForFunction(() => (document.querySelector("#out")?.textContent ?? "") !== "", null, { timeout: 30_000 });
    await Promise.race([written.catch(() => Promise.reject(new Error("the page wrote nothing into #out within 30 s"))), failed]);
    return `${await page.textContent("#out")}\n`;
  } finally {
    await page.close();
  }
}
