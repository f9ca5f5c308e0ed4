import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { get, openArray, toCanonicalJson, ZarrError } from "../src/index.js";
import { FIXTURES, loadDirectory } from "./helpers.js";

const root = join(FIXTURES, "v3/data.zarr");
const store = loadDirectory(root);
const BUILTIN = new Set(["bytes", "transpose"]);

function arraysIn(): string[] {
  return [...store.map.keys()]
    .filter((k) => k.endsWith("/zarr.json"))
    .map((k) => k.slice(0, -"/zarr.json".length))
    .filter((p) => JSON.parse(new TextDecoder().decode(store.map.get(`${p}/zarr.json`))).node_type === "array");
}

function codecNames(codecs: { name: string; configuration?: { codecs?: unknown[]; index_codecs?: unknown[] } }[]): string[] {
  return codecs.flatMap((c) => [
    c.name,
    ...codecNames((c.configuration?.codecs ?? []) as never[]),
    ...codecNames((c.configuration?.index_codecs ?? []) as never[]),
  ]);
}

describe("zarr-python v3 fixtures (core only)", () => {
  const paths = arraysIn();
  it("finds the fixture arrays", () => {
    expect(paths.length).toBeGreaterThan(40);
    expect(readdirSync(join(FIXTURES, "expected/v3")).length).toBe(paths.length);
  });
  for (const path of paths) {
    const meta = JSON.parse(new TextDecoder().decode(store.map.get(`${path}/zarr.json`)));
    const names = codecNames(meta.codecs);
    const missing = names.filter((n) => !BUILTIN.has(n));
    const expected = JSON.parse(readFileSync(join(FIXTURES, "expected/v3", `${path.replaceAll("/", "__")}.json`), "utf8"));
    if (missing.length === 0) {
      it(`reads ${path}`, async () => {
        const arr = await openArray(store, path);
        const json = toCanonicalJson(await get(arr));
        expect(json.shape).toEqual(expected.shape);
        expect(json.values).toEqual(expected.values);
      });
    } else {
      it(`${path} fails with CODEC_UNKNOWN naming ${missing[0]}`, async () => {
        // The array opens (its metadata is valid); its problem says what is missing, and reading fails with it.
        const arr = await openArray(store, path);
        const error = arr.problem;
        await expect(get(arr)).rejects.toBe(error);
        expect(error).toBeInstanceOf(ZarrError);
        expect((error as ZarrError).code).toBe("CODEC_UNKNOWN");
        expect((error as ZarrError).message).toContain(`"${missing[0]}"`);
        expect((error as ZarrError).message).toContain(`${path}/zarr.json`);
        expect((error as ZarrError).message).toContain("Install the package that provides it");
      });
    }
  }
});
