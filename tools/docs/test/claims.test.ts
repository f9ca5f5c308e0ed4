/**
 * What the guides say about the API is true: every @zarr name they import or mention
 * exists (lib/api-mentions.mjs), and none says a feature is missing that the README lists
 * (lib/feature-claims.mjs). The checkers are also run on small guides holding the drifts
 * they exist for, which they must report.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: plain .mjs modules without types
import { apiMentionProblems } from "../lib/api-mentions.mjs";
// @ts-expect-error: plain .mjs modules without types
import { publicNames } from "../lib/api-names.mjs";
// @ts-expect-error: plain .mjs modules without types
import { FEATURES, featureClaimProblems, staleAbsentEntries } from "../lib/feature-claims.mjs";
// @ts-expect-error: plain .mjs modules without types
import { pages } from "../lib/site.mjs";

interface Names {
  exports: Map<string, Set<string>>;
  members: Set<string>;
  membersOf: Map<string, Set<string>>;
}

const readme = readFileSync(path.join(import.meta.dirname, "..", "..", "..", "README.md"), "utf8");
const guides = new Map((pages() as { key: string; file: string }[]).map((p) => [p.key, readFileSync(p.file, "utf8")]));
let names: Names;
let arrayMembers: Set<string>;

beforeAll(() => {
  names = publicNames();
  arrayMembers = names.membersOf.get("ZarrArray") as Set<string>;
}, 300_000);

describe("the public names the checks compare with", () => {
  it("hold the entry points' exports and the members of their types", () => {
    expect(names.exports.get("@zarr/core")?.has("get")).toBe(true);
    expect(names.exports.get("@zarr/core")?.has("SetValueOf")).toBe(true); // types too
    expect(names.exports.get("@zarr/store-fs")?.has("FileSystemStore")).toBe(true);
    expect(names.exports.get("@zarr/core")?.has("FileSystemStore")).toBe(false);
    expect(arrayMembers.has("is")).toBe(true);
    expect(arrayMembers.has("dimensionNames")).toBe(true);
    expect(names.membersOf.get("ZarrGroup")?.has("attributes")).toBe(true);
    expect(names.members.has("writeEmptyChunks")).toBe(true); // an options field
  });
});

describe("the guides name only API that exists", () => {
  for (const [key, text] of guides) {
    it(key, () => {
      expect(apiMentionProblems(key, text, names)).toEqual([]);
    });
  }

  it("reports imports, calls, classes and members that no package exports", () => {
    const guide = [
      "Open with `openArray(store, path)`, or `openArrayFast(store, path)`.",
      "Write with `new FastStore()`; `FileSystemStore` of `@zarr/store-http`; `ZarrError` is fine.",
      "Test `arr.is(\"float32\")`, not `arr.isFloat32`; `@zarr/store-nowhere` has nothing; `arr.codecs`, not `arr.registryEntries`, `image.nope`.",
      "JavaScript's own `JSON.parse` and `Math.max` are not ours to check; `Zarr.parse` is.",
      "",
      "```js",
      'import { get, getFast, type ZarrArray } from "@zarr/core";',
      'import { S3Store } from "@zarr/store-fs";',
      "```",
    ].join("\n");
    expect(apiMentionProblems("g", guide, names)).toEqual([
      'g:6: "getFast" is imported from "@zarr/core", which does not export it',
      'g:6: "S3Store" is imported from "@zarr/store-fs", which does not export it',
      "g:1: `FileSystemStore` is said to be of @zarr/store-http, which does not export FileSystemStore",
      'g:1: `openArrayFast(store, path)` names "openArrayFast", which no @zarr package exports',
      'g:1: `new FastStore()` names "FastStore", which no @zarr package exports',
      'g:1: `arr.isFloat32` names a member "isFloat32" that ZarrArray does not have',
      "g:1: `@zarr/store-nowhere` names a module no package exports",
      'g:1: `arr.registryEntries` names a member "registryEntries" that ZarrArray does not have',
      'g:1: `image.nope` names a member "nope" that no exported type has',
      'g:1: `Zarr.parse` names a member "parse" that no exported type has',
    ]);
  });

  it("checks only the @zarr column of a comparison table, and skips names a guide declares foreign", () => {
    const table = ["| zarrita.js | @zarr |", "|---|---|", "| `zarr.fancy(arr)`, `ReferenceStore` | `getFancy(arr)` |"].join("\n");
    expect(apiMentionProblems("t", table, names)).toEqual(['t:3: `getFancy(arr)` names "getFancy", which no @zarr package exports']);
    const prose = "<!-- docs-test: foreign root -->\n\nzarrita resolves `root(store).resolve(path)`; a header `Range`.\n";
    expect(apiMentionProblems("p", prose, names)).toEqual(['p:3: `Range` names "Range", which no @zarr package exports']);
  });
});

describe("no guide says a feature is missing that the README lists", () => {
  it("the README lists every feature of the table (a reworded README must update it)", () => {
    for (const f of FEATURES as { feature: string; readme: RegExp }[]) expect(f.readme.test(readme), f.feature).toBe(true);
  });

  for (const [key, text] of guides) {
    it(key, () => {
      expect(featureClaimProblems(key, text, readme, arrayMembers)).toEqual([]);
    });
  }

  it("every reviewed absence (ABSENT) is still claimed by its guide", () => {
    expect(staleAbsentEntries(guides)).toEqual([]);
  });

  it("reports the drifted rows of the zarrita.js and zarr-python guides", () => {
    const zarrita = [
      "| zarrita.js 0.7 | @zarr |",
      "|---|---|",
      "| `zarr.select(arr, { time: 0 })` | no named selection: map names with `arr.dimensionNames` |",
      "| `arr.is(\"float32\")` | check `arr.dataType.name`; `data` is the storage typed array (`Float32Array` …) |",
      "| `arr.shape` | `arr.shape` |",
    ].join("\n");
    expect(featureClaimProblems("from-zarrita", zarrita, readme, arrayMembers)).toEqual([
      'from-zarrita:3: says "`zarr.select(arr, { time: 0 })` | no named selection: map names with `arr.dimensionNames`", but the README lists selection by dimension name',
      'from-zarrita:4: maps `arr.is` to something else, but ZarrArray has `is` too: "check `arr.dataType.name`; `data` is the storage typed array (`Float32Array` …)"',
    ]);
    const python = ["| zarr-python | @zarr |", "|---|---|", "| `arr.vindex[...]` (coordinate indexing) | not supported |"].join("\n");
    expect(featureClaimProblems("from-zarr-python", python, readme, arrayMembers)).toEqual([
      'from-zarr-python:3: says "`arr.vindex[...]` (coordinate indexing) | not supported", but the README lists pointwise selections (coordinates, masks)',
    ]);
  });

  it("reports prose denials of listed features, and asks for review of other negative claims", () => {
    const guide = "There is no way to select by dimension name. HTTP stores are not supported for writes by `zarr serve`.\n\nThe thing is not supported.\n";
    expect(featureClaimProblems("g", guide, readme, arrayMembers)).toEqual([
      'g:1: says "There is no way to select by dimension name.", but the README lists selection by dimension name',
      'g:1: says "HTTP stores are not supported for writes by `zarr serve`.", but the README lists the `zarr serve` command',
      'g:3: says something is missing ("The thing is not supported."): if the README lists it, fix the guide; if it is true, add it to ABSENT in tools/docs/lib/feature-claims.mjs with why',
    ]);
    // A feature the README does not list may be denied (after review).
    expect(featureClaimProblems("g", "There is no way to select by dimension name.\n", "# a README without it\n", arrayMembers)[0]).toMatch(
      /says something is missing/,
    );
  });
});
