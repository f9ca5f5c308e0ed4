// The public names of the @zarr packages, as the docs tests need them to check what the
// guides mention: what each entry point (`@zarr/core`, `@zarr/core/workers`, …) exports,
// and the member names of those exports (a class's methods and properties, an options
// object's fields), read with the TypeScript compiler from the packages' sources.
import path from "node:path";
import ts from "typescript";
import { entryPoints } from "./site.mjs";

/** Member names are collected this many levels into an export's type (options inside options). */
const MEMBER_DEPTH = 3;

/**
 * `{ exports, members, membersOf }`: `exports` maps each entry point (`"@zarr/core"`) to
 * the set of names it exports, values and types; `members` holds every property or method
 * name of those exports' types (`ZarrArray`'s `is`, `shape`; `GetOptions`' `signal`), of
 * their parameters' and results' types, to {@link MEMBER_DEPTH} levels; `membersOf` maps
 * each exported class or interface to its own members (`ZarrArray` → `is`, `shape`, …).
 */
export function publicNames() {
  const entries = entryPoints();
  const configFile = path.join(import.meta.dirname, "..", "tsconfig.typedoc.json");
  const config = ts.getParsedCommandLineOfConfigFile(configFile, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (config === undefined) throw new Error(`cannot read ${configFile}`);
  const program = ts.createProgram({ rootNames: entries.map((e) => e.file), options: config.options });
  const checker = program.getTypeChecker();
  const exports = new Map();
  const members = new Set();
  const membersOf = new Map();
  const seen = new Set();
  /** Adds the property names of `type` (and of its union/intersection parts, call signatures' parameters and results). */
  const collect = (type, depth) => {
    if (depth === 0 || seen.has(type)) return;
    seen.add(type);
    if (type.isUnionOrIntersection()) for (const part of type.types) collect(part, depth);
    for (const prop of checker.getPropertiesOfType(type)) {
      members.add(prop.name);
      const declaration = prop.valueDeclaration ?? prop.declarations?.[0];
      if (declaration !== undefined) collect(checker.getTypeOfSymbolAtLocation(prop, declaration), depth - 1);
    }
    for (const signature of [...type.getCallSignatures(), ...type.getConstructSignatures()]) {
      for (const param of signature.getParameters()) {
        const declaration = param.valueDeclaration ?? param.declarations?.[0];
        if (declaration !== undefined) collect(checker.getTypeOfSymbolAtLocation(param, declaration), depth - 1);
      }
      collect(signature.getReturnType(), depth - 1);
    }
  };
  for (const entry of entries) {
    const source = program.getSourceFile(entry.file);
    const moduleSymbol = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    if (moduleSymbol === undefined) throw new Error(`cannot read the exports of ${entry.name} (${entry.file})`);
    const names = new Set();
    for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
      names.add(symbol.name);
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      if (target.flags & (ts.SymbolFlags.Class | ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias)) {
        const declared = checker.getDeclaredTypeOfSymbol(target);
        if (target.flags & (ts.SymbolFlags.Class | ts.SymbolFlags.Interface)) {
          membersOf.set(symbol.name, new Set(checker.getPropertiesOfType(declared).map((p) => p.name)));
        }
        collect(declared, MEMBER_DEPTH);
      }
      if (target.flags & ts.SymbolFlags.Value) collect(checker.getTypeOfSymbol(target), MEMBER_DEPTH);
    }
    exports.set(entry.name, names);
  }
  return { exports, members, membersOf };
}
