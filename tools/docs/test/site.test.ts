/**
 * The documentation site: it builds (API reference and guides), every internal link and
 * anchor resolves, the CLI reference is the CLI's own usage text, and the link check and
 * block rules catch what they are meant to catch.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: plain .mjs modules without types
import { classify, codeBlocks, steps } from "../lib/blocks.mjs";
// @ts-expect-error: plain .mjs modules without types
import { brokenLinks } from "../lib/links.mjs";
// @ts-expect-error: plain .mjs modules without types
import { buildDocs, cliUsage, expandUsage, GUIDES, pages, REPOSITORY_URL, readmeForApi, renderMarkdown, repoRoot } from "../lib/site.mjs";

type Problem = { page: string; link: string; problem: string };
const scratch = mkdtempSync(path.join(tmpdir(), "zarr-docs-site-"));
const out = path.join(scratch, "site");
let built: { pages: number; modules: string[] };

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the site build (pnpm run docs)", () => {
  beforeAll(async () => {
    built = await buildDocs({ out });
  }, 300_000);

  it("renders the home page and every guide, and an API page per package entry point", () => {
    expect(built.pages).toBe(GUIDES.length + 1);
    const packages = readFileSync(path.join(repoRoot, "pnpm-workspace.yaml"), "utf8") && built.modules;
    for (const name of ["@zarr/core", "@zarr/core/workers", "@zarr/spec", "@zarr/store-http/node", "@zarr/geozarr/geotiff", "@zarr/cli", "@zarr/all"]) {
      expect(packages).toContain(name);
    }
    const core = readFileSync(path.join(out, "api/modules/_zarr_core.html"), "utf8");
    expect(core).toContain("createArray");
    // The package's main page opens with its README, links into the repository made absolute.
    expect(core).toContain('id="selections"');
    expect(core).toContain(`href="${REPOSITORY_URL}README.md#install"`);
    const get = readFileSync(path.join(out, "api/functions/_zarr_core.get.html"), "utf8");
    expect(get).toContain("GetOptions");
    const guide = readFileSync(path.join(out, "guides/remote-data.html"), "utf8");
    expect(guide).toContain('<nav>');
    expect(guide).toContain('href="../guides/from-zarrita.html"');
    expect(guide).toContain("Not run by the docs tests: needs an S3 bucket");
  });

  it("keeps '@zarr' in TSDoc prose instead of reading it as a block tag", () => {
    // packages/spec/src/errors.ts: "The base class of every error thrown by @zarr packages."
    const html = readFileSync(path.join(out, "api/classes/_zarr_spec.ZarrError.html"), "utf8");
    expect(html).toContain("thrown by @zarr packages");
  });

  it("has no broken internal link or anchor, API reference included", () => {
    expect(brokenLinks(out)).toEqual([]);
  });
});

describe("a README on its API page", () => {
  it("loses its title and points its repository links at GitHub, keeping in-page anchors and URLs", () => {
    const file = path.join(scratch, "README.md");
    writeFileSync(file, "# @zarr/x\n\nSee [root](../../README.md#install), [a](src/a.ts), [below](#api) and [zarr](https://zarr.dev).\n");
    expect(readmeForApi(file, "store-x")).toBe(
      `\nSee [root](${REPOSITORY_URL}README.md#install), [a](${REPOSITORY_URL}packages/store-x/src/a.ts), [below](#api) and [zarr](https://zarr.dev).\n`,
    );
  });
});

describe("the link check", () => {
  it("reports a missing page, a missing anchor and a link out of the site", () => {
    const site = path.join(scratch, "links");
    mkdirSync(path.join(site, "guides"), { recursive: true });
    writeFileSync(path.join(site, "index.html"), '<h1 id="top">x</h1><a href="guides/a.html#here">ok</a><a href="#top">self</a><a href="https://zarr.dev">out</a>');
    writeFileSync(
      path.join(site, "guides/a.html"),
      '<h2 id="here">a</h2><a href="../index.html#nowhere">bad anchor</a><a href="b.html">missing</a><a href="../../x.html">outside</a><img src="../index.html">',
    );
    const problems: Problem[] = brokenLinks(site);
    expect(problems.map((p) => `${p.page} ${p.link}: ${p.problem}`)).toEqual([
      "guides/a.html ../index.html#nowhere: no anchor #nowhere in index.html",
      "guides/a.html b.html: no such file",
      "guides/a.html ../../x.html: points outside the site",
    ]);
  });
});

describe("the CLI reference", () => {
  it("has a section for every command, each the text of `zarr COMMAND --help`", async () => {
    const usage = await cliUsage();
    const source = readFileSync(path.join(repoRoot, "docs/guides/cli.md"), "utf8");
    for (const command of Object.keys(usage.commands)) expect(source).toContain(`<!-- usage: ${command} -->`);
    const blocks = codeBlocks(expandUsage(source, usage)).filter((b: { kind: string }) => b.kind === "usage");
    expect(blocks.length).toBe(Object.keys(usage.commands).length + 1);
    const zarr = path.join(repoRoot, "packages/cli/bin/zarr.js");
    const help = (args: string[]) => execFileSync(process.execPath, [zarr, ...args], { encoding: "utf8" });
    expect(blocks[0].code).toBe(help(["--help"]));
    for (const [i, command] of Object.keys(usage.commands).entries()) expect(blocks[i + 1].code).toBe(help([command, "--help"]));
  });

  it("refuses a marker for a command the CLI does not have", async () => {
    expect(() => expandUsage("<!-- usage: teleport -->", { general: "", commands: {} })).toThrow('the CLI has no command "teleport"');
  });
});

describe("TypeScript blocks", () => {
  it("type-check against the packages' published types (tsc, strict)", () => {
    const dir = path.join(import.meta.dirname, "..", `.docs-ts-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    try {
      const files: string[] = [];
      for (const page of pages() as { key: string; file: string }[]) {
        const blocks = codeBlocks(readFileSync(page.file, "utf8")).filter((b: { lang: string; kind: string }) => b.lang === "ts" && b.kind === "run");
        for (const [i, block] of blocks.entries()) {
          const file = path.join(dir, `${page.key}-${i}.ts`);
          writeFileSync(file, `${block.code}\nexport {};\n`);
          files.push(file);
        }
      }
      expect(files.length).toBeGreaterThanOrEqual(2);
      const options = ["--noEmit", "--strict", "--skipLibCheck", "--target", "ES2022", "--module", "NodeNext", "--moduleResolution", "NodeNext", "--lib", "ES2022,DOM", "--types", "node"];
      const tsc = path.join(repoRoot, "node_modules/typescript/bin/tsc");
      try {
        execFileSync(process.execPath, [tsc, ...options, ...files], { cwd: dir, encoding: "utf8" });
      } catch (error) {
        throw new Error(`TypeScript blocks do not type-check:\n${(error as { stdout?: string }).stdout}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("code block rules", () => {
  it("classifies info strings", () => {
    expect(classify("js")).toEqual({ lang: "js", kind: "run" });
    expect(classify("ts")).toEqual({ lang: "ts", kind: "run" });
    expect(classify("sh")).toEqual({ lang: "sh", kind: "run" });
    expect(classify("text output")).toEqual({ lang: "text", kind: "output" });
    expect(classify("js browser")).toEqual({ lang: "js", kind: "browser" });
    expect(classify("sh not-run: needs a bucket")).toEqual({ lang: "sh", kind: "not-run", reason: "needs a bucket" });
    expect(classify("json").kind).toBe("unknown");
    expect(classify("js not-run:").kind).toBe("unknown"); // a reason is required
  });

  it("fails on an unmarked block and on an output block with nothing before it", () => {
    expect(() => steps(codeBlocks("```json\n{}\n```\n"), "g.md")).toThrow("g.md:1: code block ```json is neither run nor marked");
    expect(() => steps(codeBlocks("text\n\n```text output\nx\n```\n"), "g.md")).toThrow("g.md:3: an output block must directly follow");
    const [step] = steps(codeBlocks("```js\nconsole.log(1)\n```\n\n```text output\n1\n```\n"), "g.md");
    expect(step.expected).toBe("1\n");
  });

  it("every page of the site follows them", () => {
    const usage = { general: "", commands: new Proxy({}, { get: () => "" }) };
    for (const page of pages()) {
      const text = readFileSync(page.file, "utf8").replace(/<!--\s*usage(?::\s*[\w-]+)?\s*-->/g, "");
      expect(() => steps(codeBlocks(expandUsage(text, usage)), page.file)).not.toThrow();
    }
  });

  it("shows a not-run block's reason on the page", () => {
    const { html } = renderMarkdown("# T\n\n```sh not-run: needs the network\nnpm install x\n```\n");
    expect(html).toContain("Not run by the docs tests: needs the network");
    expect(html).toContain('<code class="language-sh">npm install x');
  });
});
