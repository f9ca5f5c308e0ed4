import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fixturesDir } from "../../../scripts/test-env.mjs";
import { MemoryStore } from "../src/index.js";

/** Root of the shared zarr-python fixtures. */
export const FIXTURES = join(fixturesDir(), "zarr-python");

/** Loads every file under `dir` into a MemoryStore (keys relative to `dir`). */
export function loadDirectory(dir: string): MemoryStore {
  const store = new MemoryStore();
  const walk = (abs: string, rel: string) => {
    for (const name of readdirSync(abs)) {
      const a = join(abs, name);
      const r = rel === "" ? name : `${rel}/${name}`;
      if (statSync(a).isDirectory()) walk(a, r);
      else store.map.set(r, new Uint8Array(readFileSync(a)));
    }
  };
  walk(dir, "");
  return store;
}

/** A store wrapper that counts requests. */
export function countingStore<S extends object>(inner: S): { store: S; counts: Record<string, number> } {
  const counts: Record<string, number> = {};
  const store = new Proxy(inner, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        counts[String(prop)] = (counts[String(prop)] ?? 0) + 1;
        return value.apply(target, args);
      };
    },
  });
  return { store, counts };
}
