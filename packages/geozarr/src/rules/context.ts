/**
 * What the rule families share: the sink their findings go to, and the nodes whose
 * convention values a node inherits (which count towards what the node must carry).
 */
import { levelOf } from "../effective.js";
import type { Finding } from "../findings.js";
import type { GeoHierarchy, GeoNode } from "../hierarchy.js";

/** One validation run: its tolerance and the findings so far. */
export interface Ctx {
  /** Relative tolerance when comparing scales with transforms. */
  tolerance: number;
  out: Finding[];
}

/**
 * The nodes whose convention values a node inherits, nearest first: an array's parent
 * group (groups give defaults to their direct child arrays), and the multiscales group of
 * a level (the node itself, or an array's parent, being a layout asset).
 */
export function inheritedFrom(h: GeoHierarchy | undefined, node: GeoNode): GeoNode[] {
  if (h === undefined) return [];
  const out: GeoNode[] = [];
  const parent = node.kind === "array" ? h.parent(node.path) : undefined;
  if (parent !== undefined) out.push(parent);
  const level = levelOf(h, node.path) ?? (parent === undefined ? undefined : levelOf(h, parent.path));
  if (level !== undefined && !out.includes(level.multiscales)) out.push(level.multiscales);
  return out;
}
