/** Partitions for the indexer tests, written independently of any package's. */
import type { DimensionPartition } from "../src/index.js";

/** A rectilinear partition (explicit edges adding up to the length), without `uniformSize`. */
export function rectilinear(edges: readonly number[]): DimensionPartition {
  const starts = [0];
  for (const e of edges) starts.push(starts[starts.length - 1] + e);
  return {
    count: edges.length,
    start: (i) => starts[i],
    size: (i) => edges[i],
    chunkOf: (index) => {
      let c = 0;
      while (starts[c + 1] <= index) c++;
      return c;
    },
  };
}
