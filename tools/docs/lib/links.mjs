// The internal link check of the built site: every href/src of every HTML page that stays
// inside the site must name a file that exists, and a #fragment must name an id (or a
// name) in that file. Links to other sites are not followed.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/** Every .html file below `dir`, as absolute paths. */
export function htmlFiles(dir) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...htmlFiles(full));
    else if (entry.name.endsWith(".html")) files.push(full);
  }
  return files;
}

const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/** The ids and names a page defines (anchors links may point at). */
export function anchorsOf(html) {
  const ids = new Set();
  for (const m of html.matchAll(/\s(?:id|name)="([^"]*)"/g)) ids.add(decodeEntities(m[1]));
  return ids;
}

function decodeEntities(s) {
  return s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

/**
 * The broken internal links of the site in `root`: `{ page, link, problem }` for each, pages
 * and links relative to `root`. An empty list means every internal link resolves.
 */
export function brokenLinks(root) {
  const anchors = new Map();
  const anchorsIn = (file) => {
    if (!anchors.has(file)) anchors.set(file, anchorsOf(readFileSync(file, "utf8")));
    return anchors.get(file);
  };
  const problems = [];
  for (const page of htmlFiles(root)) {
    const html = readFileSync(page, "utf8");
    for (const m of html.matchAll(/\s(?:href|src)="([^"]*)"/g)) {
      const link = decodeEntities(m[1]);
      if (link === "" || EXTERNAL.test(link)) continue;
      const [beforeHash, fragment] = splitOnce(link, "#");
      const [target] = splitOnce(beforeHash, "?");
      let file = target === "" ? page : path.resolve(path.dirname(page), decodeURIComponent(target));
      const report = (problem) => problems.push({ page: path.relative(root, page), link, problem });
      if (path.relative(root, file).startsWith("..")) {
        report("points outside the site");
        continue;
      }
      if (existsSync(file) && statSync(file).isDirectory()) file = path.join(file, "index.html");
      if (!existsSync(file)) {
        report("no such file");
        continue;
      }
      if (fragment !== undefined && fragment !== "" && file.endsWith(".html") && !anchorsIn(file).has(decodeURIComponent(fragment))) {
        report(`no anchor #${fragment} in ${path.relative(root, file)}`);
      }
    }
  }
  return problems;
}

function splitOnce(s, sep) {
  const i = s.indexOf(sep);
  return i < 0 ? [s, undefined] : [s.slice(0, i), s.slice(i + 1)];
}
