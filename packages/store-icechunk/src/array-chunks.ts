/**
 * One array's chunk references: which manifest covers a chunk (the snapshot's extents),
 * checked once against the array's chunk grid, and the reference itself from that
 * manifest (loaded on first use through the store-wide cache).
 */
import { ZarrError } from "@zarr/spec";
import { type ArrayLayout, arrayLayout } from "./chunk-keys.js";
import { icechunkError } from "./errors.js";
import type { ChunkRef, Manifest } from "./manifest.js";
import type { ManifestPointer, SnapshotNode } from "./snapshot.js";

/** Loads manifests by id (cached by the store). */
export type ManifestLoader = (id: string) => Promise<Manifest>;

/** Chunk references of one array node. */
export class ArrayChunks {
  readonly node: SnapshotNode;
  readonly layout: ArrayLayout;
  /** Chunks per dimension. */
  readonly grid: number[];
  readonly #load: ManifestLoader;

  constructor(node: SnapshotNode, load: ManifestLoader) {
    const data = node.array;
    if (data === undefined) throw new ZarrError("INVALID_ARGUMENT", `Icechunk node ${node.path} is not an array`);
    this.node = node;
    this.#load = load;
    const where = `${node.path.slice(1)}/zarr.json`;
    let metadata: unknown;
    try {
      metadata = JSON.parse(new TextDecoder().decode(node.userData));
    } catch (error) {
      throw icechunkError("METADATA_INVALID", where, "the array's metadata is not JSON", error);
    }
    const ndim = data.shape.length;
    this.layout = arrayLayout(metadata, ndim);
    this.grid = data.numChunks ?? data.shape.map((n, d) => Math.ceil(n / (this.layout.chunkShape?.[d] ?? data.chunkLengths?.[d] ?? n)) || 0);
    for (const pointer of data.manifests) this.#checkExtents(pointer);
  }

  /** A manifest whose extents do not fit the array's grid is a corrupt snapshot, not a missing chunk. */
  #checkExtents(pointer: ManifestPointer): void {
    const { extents } = pointer;
    const bad = (detail: string): never => {
      throw icechunkError("METADATA_INVALID", `manifests/${pointer.id}`, `the extent of the manifest for array "${this.node.path}" disagrees with the array: ${detail}`);
    };
    if (extents.length !== this.grid.length) bad(`${extents.length} dimensions, the array has ${this.grid.length}`);
    extents.forEach(({ from, to }, d) => {
      if (from >= to || to > this.grid[d]) bad(`chunks ${from}..${to} of dimension ${d}, which has ${this.grid[d]} chunks`);
    });
  }

  /** True when `coords` lie inside the chunk grid. */
  inGrid(coords: readonly number[]): boolean {
    return coords.length === this.grid.length && coords.every((c, d) => c < this.grid[d]);
  }

  /** The reference of chunk `coords`, or `undefined` when no manifest has one (a fill-value chunk). */
  async find(coords: readonly number[]): Promise<ChunkRef | undefined> {
    const pointer = this.node.array?.manifests.find((p) => p.extents.every(({ from, to }, d) => coords[d] >= from && coords[d] < to));
    if (pointer === undefined) return undefined;
    const manifest = await this.#load(pointer.id);
    return manifest.find(this.node.nodeId, coords);
  }

  /** Every chunk with a reference, as coordinates (loads every manifest of the array). */
  async *coordinates(): AsyncGenerator<number[]> {
    for (const pointer of this.node.array?.manifests ?? []) {
      const manifest = await this.#load(pointer.id);
      for (const coords of manifest.coordinates(this.node.nodeId)) {
        if (pointer.extents.every(({ from, to }, d) => coords[d] >= from && coords[d] < to)) yield coords;
      }
    }
  }
}
