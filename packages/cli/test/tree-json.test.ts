/** `zarr tree --json`: the hierarchy as one nested JSON document, the same nodes as the text tree. */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES, zarrOk } from "./helpers.js";

interface TreeNode {
  name: string;
  path: string;
  node_type: "array" | "group";
  zarr_format: number;
  shape?: number[];
  data_type?: unknown;
  implicit?: boolean;
  children?: TreeNode[];
}

const flatten = (n: TreeNode): TreeNode[] => [n, ...(n.children ?? []).flatMap(flatten)];

describe("zarr tree --json", () => {
  const root = path.join(FIXTURES, "v3", "data.zarr");

  it("nests every node with its path, kind, shape and data type", async () => {
    const tree = JSON.parse((await zarrOk(["tree", root, "--json"])).stdout.toString()) as TreeNode;
    expect(tree).toMatchObject({ name: "", path: "/", node_type: "group", zarr_format: 3 });
    const all = flatten(tree);
    const textLines = (await zarrOk(["tree", root])).stdout.toString().trim().split("\n");
    expect(all).toHaveLength(textLines.length);
    const nested = all.find((n) => n.path.endsWith("/nested/1d.i2"));
    expect(nested).toMatchObject({ name: "1d.i2", node_type: "array", shape: [4], data_type: "int16" });
    expect(nested?.children).toBeUndefined();
    expect(all.find((n) => n.name === "my group with spaces")).toMatchObject({ node_type: "group", children: [] });
  });

  it("starts at PATH", async () => {
    const tree = JSON.parse((await zarrOk(["tree", root, "my group with spaces", "--json"])).stdout.toString()) as TreeNode;
    expect(tree.path).toBe("/my group with spaces");
  });
});
