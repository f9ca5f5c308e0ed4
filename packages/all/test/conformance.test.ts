import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixturesDir } from "../../../scripts/test-env.mjs";
import { get, openArray, openStore, registry, toCanonicalJson } from "../src/index.js";

const FIXTURES = join(fixturesDir(), "zarr-python");

/** Array paths (relative to `root`) of a directory store. */
function arrayPaths(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, rel: string) => {
    for (const name of readdirSync(dir)) {
      const abs = join(dir, name);
      if (!statSync(abs).isDirectory()) continue;
      const r = rel ? `${rel}/${name}` : name;
      try {
        const doc = JSON.parse(readFileSync(join(abs, "zarr.json"), "utf8"));
        if (doc.node_type === "array") {
          out.push(r);
          continue;
        }
      } catch {}
      walk(abs, r);
    }
  };
  walk(root, "");
  return out.sort();
}

function codecNames(codecs: { name: string; configuration?: { codecs?: unknown[]; index_codecs?: unknown[] } }[]): string[] {
  return codecs.flatMap((c) => [
    c.name,
    ...codecNames((c.configuration?.codecs ?? []) as never[]),
    ...codecNames((c.configuration?.index_codecs ?? []) as never[]),
  ]);
}

const V3_STORES = [
  "v3/data.zarr",
  "v3/data.zipped_from_within.zarr.zip",
  "v3/data.zipped_from_parent.zarr.zip",
  "v3/data.uncompressed.zarr.zip",
];

describe.each(V3_STORES)("every zarr-python 3 fixture array in %s", (location) => {
  const root = join(FIXTURES, "v3/data.zarr");
  const storePromise = openStore(join(FIXTURES, location), { readOnly: true });
  for (const path of arrayPaths(root)) {
    const meta = JSON.parse(readFileSync(join(root, path, "zarr.json"), "utf8"));
    const missing = codecNames(meta.codecs).filter((n) => !registry.has("codec", n));
    const expected = JSON.parse(readFileSync(join(FIXTURES, "expected/v3", `${path.replaceAll("/", "__")}.json`), "utf8"));
    it(path, async () => {
      expect(missing, "codecs this package does not register").toEqual([]);
      const json = toCanonicalJson(await get(await openArray(await storePromise, path)));
      expect(json.shape).toEqual(expected.shape);
      expect(json.values).toEqual(expected.values);
    });
  }
});
