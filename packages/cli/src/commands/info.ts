/** `zarr info STORE [PATH] [--json] [--stored]`. */
import { normalizePath } from "@zarr/core";
import { type JsonObject, type JsonValue, jsonNumberText, unparsedAttributes } from "@zarr/spec";
import type { CliIO } from "../cli-io.js";
import { describeNode } from "../describe.js";
import { bytesText, dataTypeText, shapeText } from "../format.js";
import { compactJson } from "../json-text.js";
import { findNode } from "../listing.js";
import { type Line, type LinePart, PieceOutput } from "../piece-output.js";
import { printable, printableJson } from "../printable.js";
import { terminalProgress } from "../progress.js";
import { readLimits } from "../read-limits.js";
import { cliRegistry } from "../registry.js";
import { openStoreArg } from "../store-arg.js";
import { expectPositionals, parseCommandArgs, USAGE } from "../usage.js";

function label(name: string): string {
  return `${name}:`.padEnd(20);
}

/** What the node holds in the store, or why that is unknown. */
function storedLine(d: JsonObject): string {
  if (d.stored_bytes === null) {
    const hint = d.node_type === "array" ? "; --stored asks for each chunk key" : "";
    return `${label("stored")}unknown (the store cannot list keys${hint})`;
  }
  const how = d.stored_counted_by === undefined ? "" : ` (counted by ${d.stored_counted_by})`;
  return `${label("stored")}${bytesText(d.stored_bytes as number)} in ${d.stored_keys} keys${how}`;
}

/** One storage transformer of `info`'s text: its definition, and whether chunk I/O goes through it. */
function transformerText(t: JsonObject): string {
  const { applied, ...definition } = t;
  const note = applied ? "" : definition.must_understand === false ? " (ignored: not registered, must_understand false)" : " (not applied)";
  return `  ${compactJson(definition)}${note}`;
}

/** The attributes of the description `d` as a line part: from their text when it keeps them unparsed (they are never parsed then). */
function attributesPart(d: JsonObject): LinePart {
  const text = unparsedAttributes(d);
  return text === undefined ? { json: d.attributes } : { jsonText: text };
}

/** The format a node is stored in, as text: `Zarr v3`, `Zarr v2`, or the early v3 draft. */
export function formatText(d: JsonObject): string {
  if (d.format === "zarr-v3-draft") return "early Zarr v3 draft, as GDAL 3.6 and zarr-python 2.13 write it";
  return `Zarr v${d.zarr_format}`;
}

function arrayText(d: JsonObject): Line[] {
  const grid = d.chunk_grid as JsonObject;
  const gridShape = shapeText(d.grid_shape as JsonValue[]);
  const gridLine =
    d.chunk_shape !== null
      ? `regular, chunk shape ${shapeText(d.chunk_shape as JsonValue[])} (${gridShape} chunks)`
      : `${grid.name}, ${compactJson(grid.configuration)} (${gridShape} chunks)`;
  const kenc = d.chunk_key_encoding as JsonObject;
  const lines: Line[] = [
    `${label("path")}${d.path}`,
    `${label("node")}array (${formatText(d)})`,
    `${label("shape")}${shapeText(d.shape as JsonValue[])}`,
    `${label("data type")}${dataTypeText(d.data_type as { name: string; configuration: JsonObject })}`,
    `${label("chunk grid")}${gridLine}`,
    `${label("chunk key encoding")}${kenc.name} ${compactJson(kenc.configuration)}`,
    [label("fill value"), { json: d.fill_value }],
    "codecs:",
    ...(d.codecs as JsonValue[]).map((c): Line => ["  ", { json: c }]),
    `${label("dimension names")}${d.dimension_names === null ? "(none)" : compactJson(d.dimension_names)}`,
    [label("attributes"), attributesPart(d)],
    storedLine(d),
    `${label("chunks")}${d.chunks_stored === null ? "?" : d.chunks_stored} of ${d.chunks_total} stored`,
  ];
  if (d.storage_transformers !== undefined) lines.push("storage transformers:", ...(d.storage_transformers as JsonObject[]).map(transformerText));
  if (d.problem !== undefined) lines.push(`${label("readable")}no: ${d.problem}`);
  return lines;
}

function groupText(d: JsonObject): Line[] {
  const children = d.children as JsonObject[];
  const width = Math.max(0, ...children.map((c) => String(c.name).length));
  return [
    `${label("path")}${d.path}`,
    `${label("node")}${d.implicit ? `implicit group (${d.format === "zarr-v3-draft" ? "early Zarr v3 draft, no document" : "no zarr.json"})` : `group (${formatText(d)})`}`,
    `${label("consolidated")}${d.consolidated ? "yes" : "no"}`,
    [label("attributes"), attributesPart(d)],
    storedLine(d),
    `${label("children")}${children.length}`,
    ...children.map((c) => `  ${String(c.name).padEnd(width)}  ${c.implicit ? "implicit group" : c.node_type}`),
  ];
}

/** Runs `zarr info`. */
export async function infoCommand(args: string[], io: CliIO): Promise<void> {
  const { values, positionals } = parseCommandArgs("info", args, { json: { type: "boolean" }, stored: { type: "boolean" } });
  if (values.help) {
    await io.write(`${USAGE.info}\n`);
    return;
  }
  const limits = readLimits("info", values);
  expectPositionals("info", positionals, 1, 2);
  const path = normalizePath(positionals[1] ?? "");
  const store = await openStoreArg(positionals[0], { writable: false, headers: values.header, limits });
  const progress = values.stored ? terminalProgress("chunk keys") : undefined;
  const description = await describeNode(store, await findNode(store, path), cliRegistry(), {
    probeChunks: values.stored === true,
    onProbeProgress: progress === undefined ? undefined : (done, total) => progress.update(done, total),
  });
  progress?.end();
  // Written in pieces: attributes can be a document of millions of keys.
  if (values.json) {
    const out = new PieceOutput(io, printableJson);
    await out.json(description, { indent: 2, numberText: jsonNumberText });
    await out.lines([""]);
    await out.end();
  } else {
    const out = new PieceOutput(io, printable);
    await out.lines(description.node_type === "array" ? arrayText(description) : groupText(description));
    await out.end();
  }
}
