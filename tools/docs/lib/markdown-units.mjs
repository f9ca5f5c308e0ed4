// A guide's text as the docs claim checks read it: paragraphs and table rows (code blocks
// left out), each with its line and inline code spans.
import { codeBlocks } from "./blocks.mjs";

/**
 * The prose of Markdown `text`: `{ kind: "prose", line, text }` for each paragraph (lines
 * joined by "\n"), `{ kind: "row", line, cells, header }` for each table body row
 * (`header`: the cells of its table's header row). Fenced code blocks and headings are
 * left out.
 */
export function proseUnits(text) {
  const lines = text.split("\n");
  const units = [];
  let paragraph = undefined;
  let header = undefined;
  const endParagraph = () => {
    if (paragraph !== undefined) units.push(paragraph);
    paragraph = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = /^(`{3,})/.exec(line);
    if (fence !== null) {
      endParagraph();
      for (i++; i < lines.length && !lines[i].startsWith(fence[1]); i++);
      continue;
    }
    if (line.startsWith("|")) {
      endParagraph();
      const cells = tableCells(line);
      if (/^\|[\s|:-]+\|?\s*$/.test(line)) continue; // the separator row
      // A row right after a non-table line starts a table: it is the header.
      if (i === 0 || !lines[i - 1].startsWith("|")) header = cells;
      else units.push({ kind: "row", line: i + 1, cells, header });
      continue;
    }
    if (line.trim() === "" || line.startsWith("#") || line.startsWith("<!--")) {
      endParagraph();
      continue;
    }
    if (paragraph === undefined) paragraph = { kind: "prose", line: i + 1, text: line };
    else paragraph.text += `\n${line}`;
  }
  endParagraph();
  return units;
}

/** The cells of table row `line`; a `|` inside a code span does not split. */
export function tableCells(line) {
  const cells = [];
  let cell = "";
  let inCode = false;
  for (const ch of line.trim().replace(/^\|/, "").replace(/\|$/, "")) {
    if (ch === "`") inCode = !inCode;
    if (ch === "|" && !inCode) {
      cells.push(cell.trim());
      cell = "";
    } else cell += ch;
  }
  cells.push(cell.trim());
  return cells;
}

/** The inline code spans of `text`, whitespace runs (line breaks) made single spaces. */
export function codeSpans(text) {
  return [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1].replace(/\s+/g, " ").trim());
}

/** The code of every fenced block of `text` that holds JS or TS: `{ line, code }`. */
export function scriptBlocks(text) {
  return codeBlocks(text)
    .filter((b) => b.lang === "js" || b.lang === "ts")
    .map((b) => ({ line: b.line, code: b.code }));
}

/**
 * The names `text` says are not @zarr API (`<!-- docs-test: foreign root Range -->`):
 * zarrita.js or zarr-python API, HTTP headers, example names that a guide mentions in prose.
 */
export function foreignNames(text) {
  return new Set([...text.matchAll(/<!--\s*docs-test:\s*foreign\s+([^>]*?)\s*-->/g)].flatMap((m) => m[1].split(/\s+/)));
}
