// Checks that what a guide names as @zarr API exists: every name imported from an @zarr
// module in its code blocks, and every inline code span that reads as an API (a call, a
// class or camelCase name, `arr.member`), against the names the packages export (see
// api-names.mjs). Comparison tables check only their `@zarr` column: the other columns
// name zarrita.js or zarr-python.
import { codeSpans, foreignNames, proseUnits, scriptBlocks } from "./markdown-units.mjs";

/** Browser globals a guide may name that Node's `globalThis` lacks. */
const WEB_GLOBALS = new Set(["Worker", "document", "location", "window", "navigator", "self"]);

/** A span ending in one of these is a file or store name (`zarr.json`, `data.zarr.zip`), not `object.member`. */
const FILE_SUFFIX = /\.(json|zarr|zip|npy|md|ts|js|mjs|html|tif|tiff|zarray|zgroup|zattrs|zmetadata)$/;

/**
 * Spans that name an API: `name`, `a.b.c`, either called (`get(arr)`), optionally after
 * `await` or `new`. Group 1: the dotted name; group 2: the call's parentheses.
 */
const API_SPAN = /^(?:await\s+)?(?:new\s+)?([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(\(.*\))?$/;

/** The guides' names for our nodes: `arr.x` must be a member of `ZarrArray` itself, not of any type. */
const NODE_VARIABLES = new Map([
  ["arr", "ZarrArray"],
  ["array", "ZarrArray"],
  ["group", "ZarrGroup"],
]);

/** Namespaces of other tools whose dotted names are never ours: zarrita's `zarr.*`, numcodecs ids. */
const FOREIGN_NAMESPACES = new Set(["zarr", "numcodecs"]);

/**
 * The problems of guide `file` (text `text`) against `names` (`publicNames()`): one line
 * each, `file:line: …`, empty when every mention is exported.
 */
export function apiMentionProblems(file, text, names) {
  const problems = [];
  const all = new Set([...names.exports.values()].flatMap((s) => [...s]));
  const known = (name) => all.has(name) || names.members.has(name) || name in globalThis || WEB_GLOBALS.has(name);
  const foreign = foreignNames(text);

  for (const block of scriptBlocks(text)) {
    const imports = [
      ...block.code.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*["'](@zarr\/[^"']+)["']/g),
      ...block.code.matchAll(/const\s*\{([^}]*)\}\s*=\s*await\s+import\(\s*["'](@zarr\/[^"']+)["']\s*\)/g),
    ];
    for (const [, list, module] of imports) {
      const exported = names.exports.get(module);
      if (exported === undefined) {
        problems.push(`${file}:${block.line}: the code block imports from "${module}", which no package exports`);
        continue;
      }
      for (const item of list.split(",")) {
        // `type X`, `X as Y`, `X: y` (destructuring): the exported name is the first word.
        const name = item.trim().replace(/^type\s+/, "").split(/\s+as\s+|\s*:\s*/)[0];
        if (name !== "" && !exported.has(name)) problems.push(`${file}:${block.line}: "${name}" is imported from "${module}", which does not export it`);
      }
    }
  }

  for (const unit of proseUnits(text)) {
    let checked = unit.text;
    if (unit.kind === "row") {
      const ours = unit.header.findIndex((h) => h === "@zarr");
      checked = ours === -1 ? unit.cells.join(" | ") : (unit.cells[ours] ?? "");
    }
    // `x` of `@zarr/pkg`: `x` must come from that module.
    for (const [, span, module] of checked.matchAll(/`([^`]+)`\s+(?:of|from)\s+`(@zarr\/[^`]+)`/g)) {
      const m = API_SPAN.exec(span.trim());
      const exported = names.exports.get(module);
      if (m !== null && exported !== undefined && !exported.has(m[1].split(".")[0])) {
        problems.push(`${file}:${unit.line}: \`${span}\` is said to be of ${module}, which does not export ${m[1].split(".")[0]}`);
      }
    }
    for (const span of codeSpans(checked)) {
      const problem = spanProblem(span, names, known, foreign);
      if (problem !== undefined) problems.push(`${file}:${unit.line}: \`${span}\` ${problem}`);
    }
  }
  return problems;
}

/** Why code span `span` names an API that does not exist, or undefined when it exists or is no API. */
function spanProblem(span, names, known, foreign) {
  if (span.startsWith("@zarr/")) {
    return span.includes("*") || names.exports.has(span) ? undefined : "names a module no package exports";
  }
  const m = API_SPAN.exec(span);
  if (m === null || FILE_SUFFIX.test(m[1])) return undefined;
  const [head, member] = m[1].split(".");
  const called = m[2] !== undefined || span.startsWith("new ");
  // JavaScript's own globals (`JSON.parse`, `Math.max`, `Atomics.wait`) are never ours either.
  if (FOREIGN_NAMESPACES.has(head) || foreign.has(head) || (member !== undefined && /^[A-Z]/.test(head) && head in globalThis)) return undefined;
  if (member !== undefined) {
    const node = NODE_VARIABLES.get(head);
    if (node !== undefined) return names.membersOf.get(node)?.has(member) ? undefined : `names a member "${member}" that ${node} does not have`;
    // `defaultRegistry.add(…)`, `image.codecs`: the member (of an export or a variable) must exist.
    return names.members.has(member) ? undefined : `names a member "${member}" that no exported type has`;
  }
  // Lowercase words are commands, codec and option names as often as functions: only calls are checked.
  const apiLike = called || /[A-Z]/.test(head.slice(1)) || /^[A-Z][a-z]/.test(head);
  if (!apiLike || /^[A-Z0-9_]+$/.test(head)) return undefined;
  return known(head) ? undefined : `names "${head}", which no @zarr package exports`;
}
