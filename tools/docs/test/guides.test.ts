/**
 * Every code block of every guide runs (tools/docs/lib/run-blocks.mjs): JS and TS with
 * Node against the built packages, sh with the built `zarr` command, browser code bundled
 * for browsers; a block followed by an output block must print exactly that.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: plain .mjs modules without types
import { CHROMIUM, runGuide } from "../lib/run-blocks.mjs";
// @ts-expect-error: plain .mjs modules without types
import { pages } from "../lib/site.mjs";

describe("the guides' code blocks run and print what the guides say", () => {
  for (const page of pages() as { key: string; file: string }[]) {
    it(page.key, { timeout: 300_000 }, async () => {
      const results: { kind: string }[] = await runGuide(page.file);
      const text = readFileSync(page.file, "utf8");
      // A guide with code has at least one block that ran.
      if (/```(js|ts|sh)\n/.test(text)) expect(results.some((r) => r.kind === "run")).toBe(true);
    });
  }
});

describe("the block runner", () => {
  it("fails when a block prints something else than its output block", async () => {
    const { mkdtempSync, rmSync, writeFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const dir = mkdtempSync(path.join(tmpdir(), "zarr-docs-runner-"));
    try {
      const guide = path.join(dir, "g.md");
      writeFileSync(guide, "```js\nconsole.log(1 + 1)\n```\n\n```text output\n3\n```\n");
      await expect(runGuide(guide)).rejects.toThrow("the block printed\n2\n\ninstead of its output block\n3");
      writeFileSync(guide, "```sh\nexit 3\n```\n");
      await expect(runGuide(guide)).rejects.toThrow("block failed");
      writeFileSync(guide, "```js browser\nimport { nope } from \"@zarr/no-such-package\";\n```\n");
      await expect(runGuide(guide)).rejects.toThrow("Could not resolve");
      if (existsSync(CHROMIUM)) {
        writeFileSync(guide, '```js browser\ndocument.querySelector("#out").textContent = "ran";\n```\n\n```text output\nran\n```\n');
        expect((await runGuide(guide)).map((r: { output: string }) => r.output)).toEqual(["ran\n"]);
        writeFileSync(guide, '```js browser\nthrow new Error("boom in the page");\n```\n\n```text output\nx\n```\n');
        await expect(runGuide(guide)).rejects.toThrow("boom in the page");
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
