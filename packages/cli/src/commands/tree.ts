/** `zarr tree STORE [PATH] [--json]`. */
import { normalizePath } from "@zarr/core";
import { type JsonObject, jsonNumberText, type Store } from "@zarr/spec";
import type { CliIO } from "../cli-io.js";
import { dataTypeText, shapeText } from "../format.js";
import { findNode, type ListedNode, listChildren } from "../listing.js";
import { PieceOutput } from "../piece-output.js";
import { printable } from "../printable.js";
import { readLimits } from "../read-limits.js";
import { openStoreArg } from "../store-arg.js";
import { expectPositionals, parseCommandArgs, USAGE } from "../usage.js";

/** One node's line: `name [shape] dtype` for arrays, `name/` for groups. */
function nodeLabel(node: ListedNode, name: string): string {
  const m = node.metadata;
  if (m === undefined) return `${name} (implicit group)`;
  if (m.node_type === "group") return name;
  return `${name} ${shapeText(m.shape)} ${dataTypeText(m.data_type)}`;
}

async function writeChildren(store: Store, node: ListedNode, indent: string, lines: string[]): Promise<void> {
  const children = await listChildren(store, node);
  for (let i = 0; i < children.length; i++) {
    const last = i === children.length - 1;
    const child = children[i];
    lines.push(`${indent}${last ? "└── " : "├── "}${nodeLabel(child, child.name)}`);
    if (child.kind === "group") await writeChildren(store, child, indent + (last ? "    " : "│   "), lines);
  }
}

/** One node and everything below it as JSON, for `zarr tree --json`. */
async function treeJson(store: Store, node: ListedNode): Promise<JsonObject> {
  const m = node.metadata;
  const out: JsonObject = { name: node.name, path: `/${node.path}`, node_type: node.kind, zarr_format: node.zarrFormat };
  // Only for nodes not stored as Zarr v3 (zarr-v2, zarr-v3-draft), as in `zarr info --json`.
  if (node.format !== undefined) out.format = node.format.name;
  if (m === undefined) out.implicit = true;
  if (m?.node_type === "array") {
    out.shape = m.shape;
    const configuration = m.data_type.configuration;
    // As in zarr.json: a bare name unless the data type has a configuration.
    out.data_type = configuration === undefined || Object.keys(configuration).length === 0 ? m.data_type.name : { name: m.data_type.name, configuration };
  }
  if (node.kind === "group") out.children = await Promise.all((await listChildren(store, node)).map((c) => treeJson(store, c)));
  return out;
}

/** Runs `zarr tree`. */
export async function treeCommand(args: string[], io: CliIO): Promise<void> {
  const { values, positionals } = parseCommandArgs("tree", args, { json: { type: "boolean" } });
  if (values.help) {
    await io.write(`${USAGE.tree}\n`);
    return;
  }
  const limits = readLimits("tree", values);
  expectPositionals("tree", positionals, 1, 2);
  const path = normalizePath(positionals[1] ?? "");
  const store = await openStoreArg(positionals[0], { writable: false, headers: values.header, limits });
  const root = await findNode(store, path);
  if (values.json) {
    const out = new PieceOutput(io);
    await out.json(await treeJson(store, root), { indent: 2, numberText: jsonNumberText });
    await out.lines([""]);
    await out.end();
    return;
  }
  // The draft reports itself as Zarr v3: say which layout this is, once, on the root line.
  const draft = root.format?.name === "zarr-v3-draft" ? " (early Zarr v3 draft layout)" : "";
  const lines = [nodeLabel(root, `/${path}`) + draft];
  await writeChildren(store, root, "", lines);
  await io.write(`${lines.map(printable).join("\n")}\n`);
}
