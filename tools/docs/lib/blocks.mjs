// The code blocks of a guide and what the docs tests do with each. A block's info string
// (the words after the opening fence) says it:
//   ```js / ```ts            run with Node (TypeScript through esbuild's transform)
//   ```sh                    run with bash, `zarr` being the built CLI
//   ```text output           the exact standard output of the block before it
//   ```js browser            bundled for browsers with esbuild (checked, not run)
//   ```LANG not-run: REASON  not run; the site shows the reason
//   ```text usage            generated from the CLI's usage texts (checked against --help)
// Any other block fails the tests, so nothing on the site goes unchecked by accident.

/** Languages whose blocks are executed. */
export const RUNNABLE = new Set(["js", "ts", "sh"]);

/**
 * The fenced code blocks of Markdown `text` in order: `{ lang, info, code, line, kind,
 * reason }`, `kind` being "run", "output", "browser", "not-run", "usage" or "unknown".
 */
export function codeBlocks(text) {
  const blocks = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,})(.*)$/.exec(lines[i]);
    if (open === null) continue;
    const fence = open[1];
    const info = open[2].trim();
    const start = i;
    const body = [];
    for (i++; i < lines.length && !lines[i].startsWith(fence); i++) body.push(lines[i]);
    blocks.push({ ...classify(info), info, code: `${body.join("\n")}\n`, line: start + 1 });
  }
  return blocks;
}

/** What the tests do with a block of info string `info`. */
export function classify(info) {
  const notRun = /^(\S+)\s+not-run:\s*(.+)$/.exec(info);
  if (notRun) return { lang: notRun[1], kind: "not-run", reason: notRun[2].trim() };
  const [lang = "", ...words] = info.split(/\s+/).filter(Boolean);
  const word = words.join(" ");
  if (lang === "text" && word === "output") return { lang, kind: "output" };
  if (lang === "text" && word === "usage") return { lang, kind: "usage" };
  if (lang === "js" && word === "browser") return { lang, kind: "browser" };
  if (RUNNABLE.has(lang) && word === "") return { lang, kind: "run" };
  return { lang, kind: "unknown" };
}

/**
 * Groups the blocks of a guide into steps: each runnable block with the output block that
 * follows it (if any). Throws on an output block that follows no runnable block and on
 * blocks of unknown kind, naming the line.
 */
export function steps(blocks, name) {
  const out = [];
  for (const block of blocks) {
    if (block.kind === "unknown") {
      throw new Error(`${name}:${block.line}: code block \`\`\`${block.info} is neither run nor marked (see tools/docs/lib/blocks.mjs)`);
    }
    if (block.kind === "output") {
      const last = out.at(-1);
      if (last === undefined || last.expected !== undefined || last.block !== blocks[blocks.indexOf(block) - 1]) {
        throw new Error(`${name}:${block.line}: an output block must directly follow a runnable block`);
      }
      last.expected = block.code;
      continue;
    }
    if (block.kind === "run" || block.kind === "browser") out.push({ block, expected: undefined });
  }
  return out;
}

/**
 * The directive `<!-- docs-test: serve URL -->` of a guide: its blocks are run with URL
 * replaced by a local static HTTP server over the directory they run in. `undefined` if none.
 */
export function servedUrl(text) {
  return /<!--\s*docs-test:\s*serve\s+(\S+)\s*-->/.exec(text)?.[1];
}
