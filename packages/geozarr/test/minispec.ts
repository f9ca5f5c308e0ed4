/**
 * The JSON examples of the GeoZarr mini-spec, parsed out of its text (so none is missed),
 * and the metadata-only stores they imply.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { JsonObject } from "@zarr/spec";
import { fixturesDir } from "../../../scripts/test-env.mjs";

/** One example: its position, the heading it follows, and its documents by node path (`""` the root). */
export interface MiniSpecExample {
  index: number;
  /** The nearest heading above it that is not "Example"/"Examples" (e.g. "Simple Power-of-2 Pyramid"). */
  title: string;
  /** `zarr.json` documents by node path, exactly as the text gives them. */
  docs: Record<string, JsonObject>;
}

/** The mini-spec's text. */
export function miniSpecText(): string {
  return readFileSync(join(fixturesDir(), "geozarr", "mini-spec", "geozarr-mini-spec.txt"), "utf8");
}

/** Lines of the text that introduce a JSON example (a line holding just `json`, as the rendered code fences read). */
export function exampleMarkers(text = miniSpecText()): number[] {
  return text.split("\n").flatMap((line, i) => (line.trim() === "json" ? [i] : []));
}

/** The JSON object that starts at `text[start]` (`{`), found by matching braces outside strings. */
function objectAt(text: string, start: number): string {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return text.slice(start, i + 1);
  }
  throw new Error(`unbalanced JSON example at offset ${start}`);
}

/** Every JSON example of the mini-spec, in order. */
export function miniSpecExamples(text = miniSpecText()): MiniSpecExample[] {
  const lines = text.split("\n");
  const offsets: number[] = [];
  let at = 0;
  for (const line of lines) {
    offsets.push(at);
    at += line.length + 1;
  }
  return exampleMarkers(text).map((marker, index) => {
    const start = text.indexOf("{", offsets[marker]);
    const parsed = JSON.parse(objectAt(text, start)) as Record<string, JsonObject>;
    const docs: Record<string, JsonObject> = {};
    for (const [key, doc] of Object.entries(parsed)) {
      if (key !== "zarr.json" && !key.endsWith("/zarr.json")) throw new Error(`example ${index}: "${key}" is not a zarr.json key`);
      docs[key === "zarr.json" ? "" : key.slice(0, -"/zarr.json".length)] = doc;
    }
    let title = "";
    for (let i = marker - 1; i >= 0 && title === ""; i--) {
      const heading = /^(.+)¶$/.exec(lines[i].trim());
      if (heading !== null && !/^Examples?$/.test(heading[1])) title = heading[1];
    }
    return { index, title, docs };
  });
}

/**
 * Keys the Zarr v3 core spec requires of an array document that the examples leave out
 * (they show only what GeoZarr says about arrays); the stores get the spec's defaults.
 */
export const ARRAY_DEFAULTS: Readonly<JsonObject> = {
  chunk_key_encoding: { name: "default" },
  fill_value: 0,
};

/** The variables each level of a multiscales example holds (the mini-spec's file layout names the Sentinel-2 bands). */
export function levelVariables(example: MiniSpecExample): string[] {
  return /sentinel/i.test(example.title) ? ["B02", "B03", "B04", "B08"] : ["band"];
}

/**
 * The documents of a store for an example: its own documents (arrays completed with
 * {@link ARRAY_DEFAULTS} where they leave them out), plus, for a multiscales layout whose
 * levels the example does not show, a level group per asset with uint16 arrays of the
 * level's `spatial:shape` and the group's `spatial:dimensions`.
 */
export function exampleStoreDocs(example: MiniSpecExample): Record<string, JsonObject> {
  const docs: Record<string, JsonObject> = {};
  for (const [path, doc] of Object.entries(example.docs)) {
    docs[path] = doc.node_type === "array" ? { ...ARRAY_DEFAULTS, ...doc } : { ...doc };
  }
  const root = example.docs[""];
  const attrs = (root?.attributes ?? {}) as JsonObject;
  const ms = attrs.multiscales as { layout?: JsonObject[] } | undefined;
  const dims = attrs["spatial:dimensions"] as string[] | undefined;
  for (const entry of ms?.layout ?? []) {
    const asset = entry.asset as string;
    if (docs[asset] !== undefined) continue;
    const shape = entry["spatial:shape"] as number[];
    docs[asset] = { zarr_format: 3, node_type: "group", attributes: {} };
    for (const name of levelVariables(example)) {
      docs[`${asset}/${name}`] = {
        zarr_format: 3,
        node_type: "array",
        shape: [...shape],
        data_type: "uint16",
        chunk_grid: { name: "regular", configuration: { chunk_shape: shape.map((n) => Math.min(n, 1024)) } },
        chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
        fill_value: 0,
        codecs: [{ name: "bytes", configuration: { endian: "little" } }],
        dimension_names: [...(dims ?? ["Y", "X"])],
        attributes: {},
      };
    }
  }
  return docs;
}
