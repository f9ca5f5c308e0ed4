#!/usr/bin/env node
/**
 * Finds import cycles between the modules of each package's src/ (type-only imports
 * count too: a type cycle still ties the modules together). Prints every cycle found and
 * exits 1 when there is one.
 *
 *   node scripts/import-cycles.mjs                 every package
 *   node scripts/import-cycles.mjs packages/core   just these packages
 *
 * Specifiers come from TypeScript's own pre-processor (`ts.preProcessFile`), so imports
 * inside comments and strings (TSDoc examples) are not mistaken for real ones; only
 * relative specifiers (`./x.js`, `../y/index.js`) that resolve to a file of the same src/
 * are edges.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ts = createRequire(import.meta.url)("typescript");
const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Every .ts file below `dir` (declaration files excluded). */
function sourceFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full));
    else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) out.push(full);
  }
  return out;
}

/** The file a relative specifier names (`./x.js` is written for `./x.ts`), or undefined. */
function resolveSpecifier(from, specifier) {
  if (!specifier.startsWith(".")) return undefined;
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(m?js|ts)$/, "");
  for (const candidate of [`${stem}.ts`, join(base, "index.ts")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** Module graph of one src/ directory: file → files it imports. */
export function importGraph(srcDir) {
  const graph = new Map();
  for (const file of sourceFiles(srcDir)) {
    const info = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    const targets = new Set();
    for (const { fileName } of info.importedFiles) {
      const target = resolveSpecifier(file, fileName);
      if (target !== undefined && target !== file) targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/**
 * The cycles of `graph`: one per strongly connected component with more than one module
 * (Tarjan's algorithm), each with a closed path through it and all the modules tied up in it.
 */
export function findCycles(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const visit = (v) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) components.push(component);
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return components.map((component) => ({ path: closedPath(graph, new Set(component)), modules: component.sort() }));
}

/** A shortest path from the component's first module back to itself, within the component. */
function closedPath(graph, members) {
  const start = [...members].sort()[0];
  const previous = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift();
    for (const w of graph.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let u = v; u !== start; u = previous.get(u)) path.splice(1, 0, u);
        return [...path, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

function main(args) {
  const packages = args.length > 0 ? args.map((a) => resolve(a)) : readdirSync(join(root, "packages")).map((p) => join(root, "packages", p));
  let found = 0;
  for (const pkg of packages) {
    const src = join(pkg, "src");
    if (!existsSync(src)) continue;
    for (const cycle of findCycles(importGraph(src))) {
      found++;
      const name = (f) => relative(src, f);
      console.log(`${relative(root, pkg)}: import cycle ${cycle.path.map(name).join(" -> ")}`);
      console.log(`  modules in the circle: ${cycle.modules.map(name).join(", ")}`);
    }
  }
  if (found > 0) {
    console.log(`${found} import cycle(s) found`);
    process.exit(1);
  }
  console.log("no import cycles");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
