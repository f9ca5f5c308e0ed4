// Runs the code blocks of a guide in order, in one scratch directory (so a block can read
// what an earlier one wrote), each as its own process: JS/TS as an ES module with Node
// (imports resolve through tools/docs/node_modules, i.e. the built workspace packages), sh
// with bash and the built `zarr` CLI first on PATH. A block followed by a ```text output
// block must print exactly that.
import { execFile } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { build, transformSync } from "esbuild";
import { codeBlocks, servedUrl, steps } from "./blocks.mjs";
import { repoRoot } from "./site.mjs";
import { serveDirectory } from "./static-server.mjs";

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
  const server = url === undefined ? undefined : await serveDirectory(work);
  const results = [];
  try {
    for (const { block, expected } of steps(codeBlocks(text), name)) {
      const where = `${name}:${block.line}`;
      const code = url === undefined ? block.code : block.code.replaceAll(url, server.url);
      let output;
      try {
        output = block.kind === "browser" ? await bundleForBrowser(code, scratch) : await runBlock(block.lang, code, { work, bin, scratch, timeout });
      } catch (error) {
        throw new Error(`${where}: the \`\`\`${block.info} block failed:\n${error.stderr || error.message}`);
      }
      if (url !== undefined) output = output.replaceAll(server.url, url);
      if (expected !== undefined && normalizeOutput(output) !== normalizeOutput(expected)) {
        throw new Error(`${where}: the block printed\n${output}\ninstead of its output block\n${expected}`);
      }
      results.push({ line: block.line, kind: block.kind, output });
    }
  } finally {
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

/** Bundles a browser block with esbuild for browsers (the "browser" export condition); resolves "". */
async function bundleForBrowser(code, scratch) {
  const result = await build({
    stdin: { contents: code, resolveDir: docsPackage, sourcefile: "browser-block.js", loader: "js" },
    bundle: true,
    write: false,
    platform: "browser",
    format: "esm",
    outdir: path.join(scratch, "bundle"),
    splitting: true,
    logLevel: "silent",
  });
  if (result.errors.length > 0) throw new Error(result.errors.map((e) => e.text).join("\n"));
  return "";
}
