/**
 * Which nodes the Dataset and Multiscale Dataset rules apply to. The mini-spec: a group is
 * a GeoZarr Dataset only when it declares both proj: and spatial:, a Multiscale Dataset only
 * when it declares multiscales, proj: and spatial:, and the levels of a Multiscale Dataset
 * are Datasets. A node that uses a convention correctly without qualifying is valid: its
 * conventions' own rules apply, an info says why it is not a Dataset, and the member rules
 * do not. One table row per combination of declared conventions, on groups and on arrays.
 */
import type { JsonObject } from "@zarr/spec";
import { describe, expect, it } from "vitest";
import { CONVENTION_ENTRIES, type ConventionName, validate } from "../src/index.js";
import { array, group, writeDocs } from "./helpers.js";

type Docs = Record<string, JsonObject>;
const COMBOS: ConventionName[][] = [[], ["proj"], ["spatial"], ["multiscales"], ["proj", "spatial"], ["proj", "multiscales"], ["spatial", "multiscales"], ["proj", "spatial", "multiscales"]];
const name = (c: ConventionName[]) => (c.length === 0 ? "none" : c.join("+"));
const TRANSFORM = [10, 0, 500000, 0, -10, 5000000];

/** The attributes of a node that declares `conventions` and uses each correctly. */
function attributesOf(conventions: ConventionName[], kind: "group" | "array"): JsonObject {
  const a: JsonObject = {};
  if (conventions.length > 0) a.zarr_conventions = conventions.map((c) => CONVENTION_ENTRIES[c]);
  if (conventions.includes("proj")) a["proj:code"] = "EPSG:32633";
  if (conventions.includes("spatial")) {
    a["spatial:dimensions"] = ["Y", "X"];
    a["spatial:transform"] = TRANSFORM;
  }
  if (conventions.includes("multiscales")) {
    const spatial = conventions.includes("spatial");
    a.multiscales = {
      layout: [
        // As the mini-spec asks, each level gives its spatial:shape and spatial:transform.
        { asset: "0", ...(spatial ? { "spatial:shape": [64, 64], "spatial:transform": TRANSFORM } : {}) },
        {
          asset: "1",
          derived_from: "0",
          transform: { scale: [2, 2], translation: [0, 0] },
          ...(spatial ? { "spatial:shape": [32, 32], "spatial:transform": [20, 0, 500000, 0, -20, 5000000] } : {}),
        },
      ],
      resampling_method: "average",
    };
  }
  if (kind === "array") delete a["spatial:transform"];
  return a;
}

/**
 * A group declaring `conventions` at the root. Its members break a Dataset rule and
 * nothing else: a multiscales group's levels hold a [band, Y, X] variable without a
 * "band" coordinate array; any other group holds a 1-D variable "t" over "time" without a
 * "time" coordinate array.
 */
function groupDocs(conventions: ConventionName[]): Docs {
  const docs: Docs = { "": group(attributesOf(conventions, "group")) };
  if (conventions.includes("multiscales")) {
    for (const [level, n] of [["0", 64], ["1", 32]] as const) {
      docs[level] = group();
      docs[`${level}/b`] = array([2, n, n], ["band", "Y", "X"]);
    }
  } else docs.t = array([3], ["time"]);
  return docs;
}

/** An array "a" [band, Y, X] declaring `conventions`, in a group that declares `groupConventions`; no coordinate arrays. */
function arrayDocs(conventions: ConventionName[], groupConventions: ConventionName[] = []): Docs {
  return { "": group(attributesOf(groupConventions, "group")), a: array([2, 64, 64], ["band", "Y", "X"], attributesOf(conventions, "array")) };
}

async function findings(docs: Docs) {
  const r = await validate(await writeDocs(docs));
  return { r, list: r.findings.map((f) => `${f.severity} ${f.rule} ${f.path || "/"}`).sort() };
}

const coordinateMissing = (path: string) => `error dataset.coordinate-missing ${path}`;

/** Combination → [findings, Datasets, Multiscale Datasets] for {@link groupDocs}. */
const GROUPS: Record<string, [string[], string[], string[]]> = {
  none: [[], [], []],
  proj: [["info dataset.incomplete-conventions /"], [], []],
  spatial: [["info dataset.incomplete-conventions /"], [], []],
  multiscales: [["info multiscales.not-geospatial /"], [], []],
  "proj+spatial": [[coordinateMissing("t")], [""], []],
  "proj+multiscales": [["info multiscales.conventions-missing /"], [], []],
  "spatial+multiscales": [["info multiscales.conventions-missing /"], [], []],
  "proj+spatial+multiscales": [[coordinateMissing("0/b"), coordinateMissing("1/b")], ["", "0", "1"], [""]],
};

describe("qualification: a group declaring each combination of conventions", () => {
  it.each(COMBOS.map((c) => [name(c), c] as const))("%s", async (key, conventions) => {
    const { r, list } = await findings(groupDocs(conventions));
    const [expected, datasets, multiscales] = GROUPS[key];
    expect(list).toEqual([...expected].sort());
    expect(r.valid).toBe(!expected.some((f) => f.startsWith("error")));
    expect(r.datasets.sort()).toEqual(datasets);
    expect(r.multiscales).toEqual(multiscales);
  });

  /** Combination → what the info says is missing. */
  const WHY: Record<string, string> = {
    proj: "not a GeoZarr Dataset: this group declares proj: but not spatial:",
    spatial: "not a GeoZarr Dataset: this group declares spatial: but not proj:",
    multiscales: "not a GeoZarr Multiscale Dataset: this multiscales group declares neither proj: nor spatial:",
    "proj+multiscales": "not a GeoZarr Multiscale Dataset: spatial is not declared",
    "spatial+multiscales": "not a GeoZarr Multiscale Dataset: proj is not declared",
  };
  it.each(Object.entries(WHY))("%s: the info says it is not a Dataset and which convention is missing", async (key, why) => {
    const { r } = await findings(groupDocs(COMBOS.find((c) => name(c) === key) ?? []));
    expect(r.findings.map((f) => [f.severity, f.message.slice(0, why.length)])).toEqual([["info", why]]);
  });

  it("proj+spatial with a layout but without the multiscales declaration: a Dataset, not a Multiscale Dataset", async () => {
    const docs = groupDocs(["proj", "spatial", "multiscales"]);
    const a = docs[""].attributes as JsonObject;
    a.zarr_conventions = [CONVENTION_ENTRIES.proj, CONVENTION_ENTRIES.spatial];
    const { r, list } = await findings(docs);
    expect(list).toEqual(["info multiscales.conventions-missing /", "warning conventions.undeclared /"]);
    expect(r.findings.find((f) => f.rule === "multiscales.conventions-missing")?.message).toContain("multiscales is not declared");
    expect(r.datasets).toEqual([""]);
    expect(r.multiscales).toEqual([]);
  });

  it("a qualifying group whose members keep the Dataset rules is valid with no finding", async () => {
    const dataset = groupDocs(["proj", "spatial"]);
    dataset.time = array([3], ["time"]);
    expect((await findings(dataset)).list).toEqual([]);
    const pyramid = groupDocs(["proj", "spatial", "multiscales"]);
    for (const level of ["0", "1"]) pyramid[`${level}/band`] = array([2], ["band"]);
    expect((await findings(pyramid)).list).toEqual([]);
  });
});

/** Combination → findings for {@link arrayDocs} in a group that declares nothing. */
const ARRAYS: Record<string, string[]> = {
  none: [],
  proj: ["info dataset.array-not-member a"],
  spatial: ["info dataset.array-not-member a"],
  multiscales: ["error multiscales.on-array a"],
  "proj+spatial": ["info dataset.array-not-member a"],
  "proj+multiscales": ["info dataset.array-not-member a", "error multiscales.on-array a"],
  "spatial+multiscales": ["info dataset.array-not-member a", "error multiscales.on-array a"],
  "proj+spatial+multiscales": ["info dataset.array-not-member a", "error multiscales.on-array a"],
};

describe("qualification: an array declaring each combination of conventions", () => {
  it.each(COMBOS.map((c) => [name(c), c] as const))("%s, in a group that declares nothing", async (key, conventions) => {
    const { r, list } = await findings(arrayDocs(conventions));
    expect(list).toEqual([...ARRAYS[key]].sort());
    expect(r.valid).toBe(!ARRAYS[key].some((f) => f.startsWith("error")));
    expect(r.datasets).toEqual([]);
    const info = r.findings.find((f) => f.rule === "dataset.array-not-member");
    if (info !== undefined) expect(info.message).toContain('its group "/" does not declare proj: or spatial:');
  });

  it.each(COMBOS.map((c) => [name(c), c] as const))("%s, in a Dataset: the member rules apply, no info", async (_key, conventions) => {
    const { list } = await findings(arrayDocs(conventions, ["proj", "spatial"]));
    const onArray = conventions.includes("multiscales") ? ["error multiscales.on-array a"] : [];
    expect(list).toEqual([coordinateMissing("a"), ...onArray].sort());
  });

  it("the info names what the group lacks", async () => {
    const { r } = await findings(arrayDocs(["spatial"], ["proj"]));
    expect(r.findings.find((f) => f.rule === "dataset.array-not-member")?.message).toContain('its group "/" does not declare spatial:');
  });

  it("outside a Dataset, proj needs no dimension names; spatial needs them to name its axes", async () => {
    const unnamed = (conventions: ConventionName[]) => ({ "": group(), a: array([64, 64], null, attributesOf(conventions, "array")) });
    expect((await findings(unnamed(["proj"]))).list).toEqual(["info dataset.array-not-member a"]);
    expect((await findings(unnamed(["spatial"]))).list).toEqual(["error spatial.dimensions-not-in-array a", "info dataset.array-not-member a"]);
    // In a Dataset the DataArray rule says it (once).
    const member = { ...unnamed(["spatial"]), "": group(attributesOf(["proj", "spatial"], "group")) };
    expect((await findings(member)).list).toEqual(["error dataarray.dimension-names-missing a"]);
  });
});

describe("qualification: a convention's own rules apply wherever it is declared", () => {
  /** Each convention's keys made wrong, and the rule that says so. */
  const BREAK: Record<ConventionName, [(a: JsonObject) => void, string]> = {
    proj: [(a) => { a["proj:code"] = "epsg:32633"; }, "proj.code-format"],
    spatial: [(a) => { a["spatial:dimensions"] = ["Y"]; }, "spatial.dimensions-invalid"],
    multiscales: [(a) => { ((a.multiscales as JsonObject).layout as JsonObject[])[1].derived_from = "9"; }, "multiscales.derived-from-unknown"],
  };
  const cases = COMBOS.flatMap((c) => c.map((broken) => [`${name(c)}, ${broken} broken`, c, broken] as const));

  it.each(cases)("group %s", async (_name, conventions, broken) => {
    const docs = groupDocs(conventions);
    BREAK[broken][0](docs[""].attributes as JsonObject);
    const { r } = await findings(docs);
    expect(r.findings.filter((f) => f.path === "" && f.severity === "error").map((f) => f.rule)).toContain(BREAK[broken][1]);
    expect(r.valid).toBe(false);
  });

  it.each(cases.filter(([, , broken]) => broken !== "multiscales"))("array %s", async (_name, conventions, broken) => {
    const docs = arrayDocs(conventions);
    BREAK[broken][0](docs.a.attributes as JsonObject);
    const { r } = await findings(docs);
    expect(r.findings.filter((f) => f.path === "a" && f.severity === "error").map((f) => f.rule)).toContain(BREAK[broken][1]);
  });
});

describe("qualification through the hierarchy", () => {
  it("a level of a Multiscale Dataset inherits the CRS and spatial:dimensions of its multiscales group", async () => {
    const { r } = await findings(groupDocs(["proj", "spatial", "multiscales"]));
    // The levels declare nothing: had they not inherited, the Dataset rules would ask for a CRS.
    expect(r.findings.map((f) => f.rule)).not.toContain("dataset.georeferencing-missing");
    expect(r.datasets.sort()).toEqual(["", "0", "1"]);
  });

  it("a level of a Multiscale Dataset that declares only proj: is still a Dataset, with no info saying otherwise", async () => {
    const docs = groupDocs(["proj", "spatial", "multiscales"]);
    docs["1"] = group(attributesOf(["proj"], "group"));
    const { r, list } = await findings(docs);
    expect(list).toEqual([coordinateMissing("0/b"), coordinateMissing("1/b")]);
    expect(r.datasets.sort()).toEqual(["", "0", "1"]);
  });

  it("a sub-group of a Dataset that is not a level is not a Dataset", async () => {
    const docs = groupDocs(["proj", "spatial"]);
    docs.time = array([3], ["time"]);
    docs.sub = group();
    docs["sub/b"] = array([2, 64, 64], ["band", "Y", "X"]);
    const { r, list } = await findings(docs);
    expect(list).toEqual([]);
    expect(r.datasets).toEqual([""]);
  });

  it("a level of a non-qualifying multiscales group is a Dataset when it declares proj: and spatial: itself", async () => {
    const docs = groupDocs(["multiscales"]);
    docs["0"] = group(attributesOf(["proj", "spatial"], "group"));
    const { r, list } = await findings(docs);
    expect(list).toEqual([coordinateMissing("0/b"), "info multiscales.not-geospatial /"].sort());
    expect(r.datasets).toEqual(["0"]);
    expect(r.multiscales).toEqual([]);
  });

  it("the Multiscale Dataset member rules (undeclared members, variables per level) hold only for a qualifying group", async () => {
    for (const conventions of [["multiscales"], ["proj", "multiscales"], ["proj", "spatial", "multiscales"]] as ConventionName[][]) {
      const docs = groupDocs(conventions);
      docs.extra = group();
      docs["1/c"] = array([2, 32, 32], ["band", "Y", "X"]);
      const rules = (await findings(docs)).r.findings.map((f) => f.rule);
      const qualifying = conventions.length === 3;
      expect(rules.includes("multiscales.undeclared-member"), conventions.join("+")).toBe(qualifying);
      expect(rules.includes("multiscales.variables-differ"), conventions.join("+")).toBe(qualifying);
    }
  });

  it("spatial:* keys in a layout without the spatial declaration are an undeclared use", async () => {
    const docs = groupDocs(["proj", "multiscales"]);
    ((docs[""].attributes as JsonObject).multiscales as { layout: JsonObject[] }).layout[1]["spatial:shape"] = [32, 32];
    const { r } = await findings(docs);
    const undeclared = r.findings.filter((f) => f.rule === "conventions.undeclared");
    expect(undeclared.map((f) => [f.severity, f.pointer])).toEqual([["warning", "/attributes/multiscales/layout/1/spatial:shape"]]);
    expect(r.valid).toBe(true);
  });
});
