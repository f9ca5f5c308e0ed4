// A minimal Icechunk writer, for tests and benchmarks only (there is no Icechunk writer
// here: no Python icechunk, and @zarr/store-icechunk only reads). It follows the spec
// (shared specs icechunk/spec-v1.md, spec-v2.md and the flatbuffers schemas) and builds the
// flatbuffers with the official `flatbuffers` runtime's Builder, an encoder independent of
// the hand-written reader it tests.
//
//   const repo = new IcechunkWriter(store, { specVersion: 2 });
//   const ref = await repo.writeChunk(bytes);                 // native chunk in chunks/
//   const id = await repo.commit("message", nodes, { txLog }); // manifests + snapshot (+ transaction log)
//   repo.expire([1, 2], { reparent: { 3: 0 }, trackTxLogs: true }); // expiration (spec 2.1 pruned_ancestor_tx_logs)
//   await repo.finish({ branches: { main: id }, tags: {} });  // repo info (spec 2) or ref files (spec 1)
//
// `icechunkFromZarr(source, target)` turns a Zarr v3 hierarchy (one snapshot) into a repository.
import { randomBytes } from "node:crypto";
import { zstdCompress } from "@zarr/codec-zstd";
import { encodeObjectId } from "@zarr/store-icechunk";
import * as flatbuffers from "flatbuffers";

const MAGIC = [0x49, 0x43, 0x45, 0xf0, 0x9f, 0xa7, 0x8a, 0x43, 0x48, 0x55, 0x4e, 0x4b];
export const FILE_TYPE = { snapshot: 1, manifest: 2, transactionLog: 4, repoInfo: 6 };
/** The first snapshot's well-known id (spec 2). */
export const INITIAL_SNAPSHOT_ID = Uint8Array.of(0x0b, 0x1c, 0xc8, 0xd6, 0x78, 0x75, 0x80, 0xf0, 0xe3, 0x3a, 0x65, 0x34);

/** Crockford base 32 of an id (the file name of a snapshot, manifest or chunk). */
export const idName = encodeObjectId;

/** A metadata file: header (magic, writer name, spec version, type, compression) and payload. */
export function encodeFile(payload, fileType, { specVersion = 2, compression = 1, writer = "zarr-test-writer" } = {}) {
  const body = compression === 1 ? zstdCompress(payload, 3) : payload;
  const name = new TextEncoder().encode(writer.padEnd(24, " ").slice(0, 24));
  const out = new Uint8Array(39 + body.length);
  out.set(MAGIC, 0);
  out.set(name, 12);
  out.set([specVersion, fileType, compression], 36);
  out.set(body, 39);
  return out;
}

function id12(b, bytes) {
  b.prep(1, 12);
  for (let i = 11; i >= 0; i--) b.writeInt8(bytes[i]);
  return b.offset();
}
function id8(b, bytes) {
  b.prep(1, 8);
  for (let i = 7; i >= 0; i--) b.writeInt8(bytes[i]);
  return b.offset();
}
function bytesVector(b, bytes) {
  b.startVector(1, bytes.length, 1);
  for (let i = bytes.length - 1; i >= 0; i--) b.addInt8(bytes[i]);
  return b.endVector();
}
function offsets(b, list) {
  b.startVector(4, list.length, 4);
  for (let i = list.length - 1; i >= 0; i--) b.addOffset(list[i]);
  return b.endVector();
}
const big = (n) => BigInt(n);

/** Compares chunk coordinates lexicographically. */
function compareCoords(a, b) {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}
function compareBytes(a, b) {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** Manifest payload: `arrays` = [{ nodeId, refs: [{ index, inline | chunkId+offset+length | location+offset+length(+etag, lastModified) }] }]. */
export function manifestPayload(id, arrays) {
  const b = new flatbuffers.Builder(1024);
  const sorted = [...arrays].sort((x, y) => compareBytes(x.nodeId, y.nodeId));
  const arrayOffsets = sorted.map(({ nodeId, refs }) => {
    const refOffsets = [...refs].sort((x, y) => compareCoords(x.index, y.index)).map((ref) => {
      b.startVector(4, ref.index.length, 4);
      for (let i = ref.index.length - 1; i >= 0; i--) b.addInt32(ref.index[i]);
      const index = b.endVector();
      const inline = ref.inline === undefined ? 0 : bytesVector(b, ref.inline);
      const location = ref.location === undefined ? 0 : b.createString(ref.location);
      const etag = ref.etag === undefined ? 0 : b.createString(ref.etag);
      b.startObject(10);
      b.addFieldOffset(0, index, 0);
      if (inline) b.addFieldOffset(1, inline, 0);
      if (ref.offset !== undefined) b.addFieldInt64(2, big(ref.offset), big(0));
      if (ref.length !== undefined) b.addFieldInt64(3, big(ref.length), big(0));
      if (ref.chunkId !== undefined) b.addFieldStruct(4, id12(b, ref.chunkId), 0);
      if (location) b.addFieldOffset(5, location, 0);
      if (etag) b.addFieldOffset(6, etag, 0);
      if (ref.lastModified !== undefined) b.addFieldInt32(7, ref.lastModified, 0);
      return b.endObject();
    });
    const refsVector = offsets(b, refOffsets);
    b.startObject(3);
    b.addFieldStruct(0, id8(b, nodeId), 0);
    b.addFieldOffset(1, refsVector, 0);
    return b.endObject();
  });
  const arraysVector = offsets(b, arrayOffsets);
  b.startObject(5);
  b.addFieldStruct(0, id12(b, id), 0);
  b.addFieldOffset(1, arraysVector, 0);
  b.finish(b.endObject());
  return b.asUint8Array();
}

/**
 * Snapshot payload. `nodes` = [{ path, nodeId, userData (bytes), array?: { shape, chunkShape,
 * dimensionNames?, manifests: [{ id, extents: [[from, to], ...] }] } }]; `manifestFiles` = [{ id, size, count }].
 */
export function snapshotPayload({ id, parentId, message, flushedAtMicros, nodes, manifestFiles, specVersion = 2 }) {
  const b = new flatbuffers.Builder(4096);
  const nodeOffsets = [...nodes]
    .sort((x, y) => comparePaths(x.path, y.path))
    .map((node) => {
      const path = b.createString(node.path);
      const userData = bytesVector(b, node.userData);
      let data;
      if (node.array) {
        const { shape, chunkShape, dimensionNames, manifests } = node.array;
        const refOffsets = manifests.map((m) => {
          b.startVector(8, m.extents.length, 4);
          for (let d = m.extents.length - 1; d >= 0; d--) {
            b.prep(4, 8);
            b.writeInt32(m.extents[d][1]);
            b.writeInt32(m.extents[d][0]);
          }
          const extents = b.endVector();
          b.startObject(2);
          b.addFieldStruct(0, id12(b, m.id), 0);
          b.addFieldOffset(1, extents, 0);
          return b.endObject();
        });
        const manifestsVector = offsets(b, refOffsets);
        const names = dimensionNames
          ? offsets(b, dimensionNames.map((n) => {
              const s = n === null ? 0 : b.createString(n);
              b.startObject(1);
              if (s) b.addFieldOffset(0, s, 0);
              return b.endObject();
            }))
          : 0;
        let shapeV1;
        let shapeV2 = 0;
        if (specVersion === 1) {
          b.startVector(16, shape.length, 8);
          for (let d = shape.length - 1; d >= 0; d--) {
            b.prep(8, 16);
            b.writeInt64(big(chunkShape[d]));
            b.writeInt64(big(shape[d]));
          }
          shapeV1 = b.endVector();
        } else {
          b.startVector(16, 0, 8);
          shapeV1 = b.endVector();
          shapeV2 = offsets(b, shape.map((n, d) => {
            b.startObject(2);
            b.addFieldInt64(0, big(n), big(0));
            b.addFieldInt32(1, Math.ceil(n / chunkShape[d]), 0);
            return b.endObject();
          }));
        }
        b.startObject(4);
        b.addFieldOffset(0, shapeV1, 0);
        if (names) b.addFieldOffset(1, names, 0);
        b.addFieldOffset(2, manifestsVector, 0);
        if (shapeV2) b.addFieldOffset(3, shapeV2, 0);
        data = b.endObject();
      } else {
        b.startObject(0);
        data = b.endObject();
      }
      b.startObject(6);
      b.addFieldStruct(0, id8(b, node.nodeId), 0);
      b.addFieldOffset(1, path, 0);
      b.addFieldOffset(2, userData, 0);
      b.addFieldInt8(3, node.array ? 1 : 2, 0);
      b.addFieldOffset(4, data, 0);
      return b.endObject();
    });
  const nodesVector = offsets(b, nodeOffsets);
  const messageOffset = b.createString(message);
  const metadata = offsets(b, []);
  const files = [...manifestFiles].sort((x, y) => compareBytes(x.id, y.id));
  let filesV1;
  let filesV2 = 0;
  if (specVersion === 1) {
    b.startVector(32, files.length, 8);
    for (let i = files.length - 1; i >= 0; i--) {
      b.prep(8, 32);
      b.pad(4);
      b.writeInt32(files[i].count);
      b.writeInt64(big(files[i].size));
      b.pad(4);
      for (let j = 11; j >= 0; j--) b.writeInt8(files[i].id[j]);
    }
    filesV1 = b.endVector();
  } else {
    b.startVector(32, 0, 8);
    filesV1 = b.endVector();
    filesV2 = offsets(b, files.map((f) => {
      b.startObject(4);
      b.addFieldStruct(0, id12(b, f.id), 0);
      b.addFieldInt64(1, big(f.size), big(0));
      b.addFieldInt32(2, f.count, 0);
      return b.endObject();
    }));
  }
  b.startObject(9);
  b.addFieldStruct(0, id12(b, id), 0);
  if (parentId && specVersion === 1) b.addFieldStruct(1, id12(b, parentId), 0);
  b.addFieldOffset(2, nodesVector, 0);
  b.addFieldInt64(3, big(flushedAtMicros), big(0));
  b.addFieldOffset(4, messageOffset, 0);
  b.addFieldOffset(5, metadata, 0);
  b.addFieldOffset(6, filesV1, 0);
  if (filesV2) b.addFieldOffset(7, filesV2, 0);
  b.finish(b.endObject());
  return b.asUint8Array();
}

/** Component-wise path order (the spec's node order): /a < /a/b < /ab. */
function comparePaths(a, b) {
  const x = a === "/" ? [] : a.slice(1).split("/");
  const y = b === "/" ? [] : b.slice(1).split("/");
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  return x.length - y.length;
}

/**
 * Repo info payload: snapshots = [{ id, parent (index or -1), flushedAtMicros, message,
 * prunedAncestorTxLogs?: [id bytes], expired?: true }], sorted by id here; expired ones are left out.
 */
export function repoInfoPayload({ snapshots, branches, tags, deletedTags = [] }) {
  const b = new flatbuffers.Builder(4096);
  const order = snapshots
    .map((_, i) => i)
    .filter((i) => !snapshots[i].expired)
    .sort((i, j) => compareBytes(snapshots[i].id, snapshots[j].id));
  const position = new Map(order.map((i, p) => [i, p]));
  const infos = order.map((i) => {
    const s = snapshots[i];
    const message = b.createString(s.message);
    let pruned = 0;
    if (s.prunedAncestorTxLogs !== undefined) {
      b.startVector(12, s.prunedAncestorTxLogs.length, 1);
      for (let k = s.prunedAncestorTxLogs.length - 1; k >= 0; k--) id12(b, s.prunedAncestorTxLogs[k]);
      pruned = b.endVector();
    }
    b.startObject(6);
    b.addFieldStruct(0, id12(b, s.id), 0);
    b.addFieldInt32(1, s.parent < 0 ? -1 : position.get(s.parent), 0);
    b.addFieldInt64(2, big(s.flushedAtMicros), big(0));
    b.addFieldOffset(3, message, 0);
    if (pruned) b.addFieldOffset(5, pruned, 0);
    return b.endObject();
  });
  const refs = (map) =>
    offsets(b, Object.keys(map).sort().map((name) => {
      const n = b.createString(name);
      b.startObject(2);
      b.addFieldOffset(0, n, 0);
      b.addFieldInt32(1, position.get(map[name]), 0);
      return b.endObject();
    }));
  const tagsVector = refs(tags);
  const branchesVector = refs(branches);
  const deleted = offsets(b, [...deletedTags].sort().map((t) => b.createString(t)));
  const snapshotsVector = offsets(b, infos);
  b.startObject(3);
  const status = b.endObject();
  const updates = offsets(b, []);
  b.startObject(13);
  b.addFieldInt8(0, 2, 0);
  b.addFieldOffset(1, tagsVector, 0);
  b.addFieldOffset(2, branchesVector, 0);
  b.addFieldOffset(3, deleted, 0);
  b.addFieldOffset(4, snapshotsVector, 0);
  b.addFieldOffset(5, status, 0);
  b.addFieldOffset(7, updates, 0);
  b.finish(b.endObject());
  return b.asUint8Array();
}

/** Node ids sorted by their bytes, as a vector of ObjectId8 structs. */
function id8Vector(b, ids) {
  const sorted = [...ids].sort(compareBytes);
  b.startVector(8, sorted.length, 1);
  for (let i = sorted.length - 1; i >= 0; i--) id8(b, sorted[i]);
  return b.endVector();
}

/**
 * Transaction log payload (transaction_log.fbs): node id lists (id bytes), updatedChunks =
 * [{ nodeId, chunks: [[i, j], ...] }], movedNodes = [{ from, to, nodeId, array? }] (spec 2 only).
 */
export function transactionLogPayload(id, log = {}, { specVersion = 2 } = {}) {
  const b = new flatbuffers.Builder(1024);
  const lists = ["newGroups", "newArrays", "deletedGroups", "deletedArrays", "updatedArrays", "updatedGroups"].map((k) => id8Vector(b, log[k] ?? []));
  const updated = [...(log.updatedChunks ?? [])].sort((x, y) => compareBytes(x.nodeId, y.nodeId)).map(({ nodeId, chunks }) => {
    const indices = [...chunks].sort(compareCoords).map((coords) => {
      b.startVector(4, coords.length, 4);
      for (let d = coords.length - 1; d >= 0; d--) b.addInt32(coords[d]);
      const vector = b.endVector();
      b.startObject(1);
      b.addFieldOffset(0, vector, 0);
      return b.endObject();
    });
    const chunksVector = offsets(b, indices);
    b.startObject(2);
    b.addFieldStruct(0, id8(b, nodeId), 0);
    b.addFieldOffset(1, chunksVector, 0);
    return b.endObject();
  });
  const updatedVector = offsets(b, updated);
  let moves = 0;
  if (specVersion === 2 && log.movedNodes !== undefined) {
    moves = offsets(b, [...log.movedNodes].sort((x, y) => comparePaths(x.to, y.to)).map((m) => {
      const from = b.createString(m.from);
      const to = b.createString(m.to);
      b.startObject(4);
      b.addFieldOffset(0, from, 0);
      b.addFieldOffset(1, to, 0);
      b.addFieldStruct(2, id8(b, m.nodeId), 0);
      b.addFieldInt8(3, m.array ? 1 : 0, 0);
      return b.endObject();
    }));
  }
  b.startObject(specVersion === 2 ? 10 : 8);
  b.addFieldStruct(0, id12(b, id), 0);
  for (const [k, vector] of lists.entries()) b.addFieldOffset(k + 1, vector, 0);
  b.addFieldOffset(7, updatedVector, 0);
  if (moves) b.addFieldOffset(8, moves, 0);
  b.finish(b.endObject());
  return b.asUint8Array();
}

/** Writes a repository into `store`, commit by commit. */
export class IcechunkWriter {
  constructor(store, { specVersion = 2, compression = 1 } = {}) {
    this.store = store;
    this.specVersion = specVersion;
    this.compression = compression;
    /** Every snapshot: { id, parent (index or -1), flushedAtMicros, message }. */
    this.snapshots = [];
    this.micros = Date.UTC(2026, 0, 1) * 1000;
  }

  #file(payload, type) {
    return encodeFile(payload, type, { specVersion: this.specVersion, compression: this.compression });
  }

  /** Writes `bytes` as a native chunk file; resolves its reference. */
  async writeChunk(bytes) {
    const chunkId = randomBytes(12);
    await this.store.set(`chunks/${idName(chunkId)}`, bytes);
    return { chunkId, offset: 0, length: bytes.length };
  }

  /** The empty first snapshot ("Repository initialized"); resolves its index. */
  async init() {
    // Spec 2 writes the first commit's (empty) transaction log too; spec 1 does not.
    const v2 = this.specVersion === 2;
    return this.commit("Repository initialized", [], { parent: -1, id: v2 ? INITIAL_SNAPSHOT_ID : undefined, txLog: v2 ? {} : undefined });
  }

  /**
   * Writes one manifest per array (or one per split of `splitSize` chunks along each
   * dimension) and the snapshot. `nodes` = [{ path, metadata (object), chunks?: [{ index, ...ref }] }].
   * Resolves the new snapshot's index in `this.snapshots`.
   */
  async commit(message, nodes, { parent = this.snapshots.length - 1, id = randomBytes(12), splitSize, txLog } = {}) {
    const manifestFiles = [];
    const snapshotNodes = [];
    for (const node of nodes) {
      const nodeId = node.nodeId ?? randomBytes(8);
      const userData = new TextEncoder().encode(JSON.stringify(node.metadata));
      if (node.metadata.node_type !== "array") {
        snapshotNodes.push({ path: node.path, nodeId, userData });
        continue;
      }
      const shape = node.metadata.shape;
      const chunkShape = node.metadata.chunk_grid.configuration.chunk_shape;
      const grid = shape.map((n, d) => Math.ceil(n / chunkShape[d]));
      const groups = new Map();
      for (const ref of node.chunks ?? []) {
        const split = splitSize === undefined ? "all" : ref.index.map((c) => Math.floor(c / splitSize)).join(",");
        if (!groups.has(split)) groups.set(split, []);
        groups.get(split).push(ref);
      }
      const manifests = [];
      for (const [split, refs] of groups) {
        const manifestId = randomBytes(12);
        const bytes = this.#file(manifestPayload(manifestId, [{ nodeId, refs }]), FILE_TYPE.manifest);
        await this.store.set(`manifests/${idName(manifestId)}`, bytes);
        manifestFiles.push({ id: manifestId, size: bytes.length, count: refs.length });
        const extents =
          split === "all"
            ? grid.map((n) => [0, n])
            : split.split(",").map((s, d) => [Number(s) * splitSize, Math.min(grid[d], (Number(s) + 1) * splitSize)]);
        manifests.push({ id: manifestId, extents });
      }
      snapshotNodes.push({ path: node.path, nodeId, userData, array: { shape, chunkShape, dimensionNames: node.metadata.dimension_names, manifests } });
    }
    this.micros += 1000;
    const parentId = parent >= 0 ? this.snapshots[parent].id : undefined;
    const payload = snapshotPayload({ id, parentId, message, flushedAtMicros: this.micros, nodes: snapshotNodes, manifestFiles, specVersion: this.specVersion });
    await this.store.set(`snapshots/${idName(id)}`, this.#file(payload, FILE_TYPE.snapshot));
    if (txLog !== undefined) await this.writeTransactionLog(id, txLog);
    this.snapshots.push({ id, parent, flushedAtMicros: this.micros, message });
    return this.snapshots.length - 1;
  }

  /** Writes `transactions/<id>` (`log` as {@link transactionLogPayload} takes it). */
  async writeTransactionLog(id, log) {
    await this.store.set(`transactions/${idName(id)}`, this.#file(transactionLogPayload(id, log, { specVersion: this.specVersion }), FILE_TYPE.transactionLog));
  }

  /**
   * Expiration as Icechunk does it: the snapshots at `indexes` leave the history (their
   * snapshot files are deleted; their transaction logs too unless `trackTxLogs`), and each
   * `reparent` entry (child index → new parent index) re-points a survivor. With
   * `trackTxLogs` (Icechunk 2.1) a re-pointed survivor lists the logs of the ancestors it
   * lost, oldest first, after theirs (spec 2.1 `pruned_ancestor_tx_logs`).
   */
  async expire(indexes, { reparent = {}, trackTxLogs = false } = {}) {
    if (this.specVersion !== 2) throw new Error("expire: spec 1 parents live in the snapshot files; only spec 2 is emulated");
    const expired = new Set(indexes);
    for (const [child, parent] of Object.entries(reparent)) {
      const s = this.snapshots[Number(child)];
      const lost = [];
      for (let p = s.parent; p >= 0 && p !== parent; p = this.snapshots[p].parent) lost.unshift(p);
      // The lost ancestors are older than the logs the survivor already carries.
      if (trackTxLogs) s.prunedAncestorTxLogs = [...lost.flatMap((p) => [...(this.snapshots[p].prunedAncestorTxLogs ?? []), this.snapshots[p].id]), ...(s.prunedAncestorTxLogs ?? [])];
      s.parent = parent;
    }
    for (const i of expired) {
      this.snapshots[i].expired = true;
      await this.store.delete?.(`snapshots/${idName(this.snapshots[i].id)}`);
      if (!trackTxLogs) await this.store.delete?.(`transactions/${idName(this.snapshots[i].id)}`);
    }
  }

  /** Writes the refs: the repo info file (spec 2) or ref files (spec 1). Branches and tags map names to snapshot indexes. */
  async finish({ branches, tags = {}, deletedTags = [] }) {
    if (this.specVersion === 2) {
      const payload = repoInfoPayload({ snapshots: this.snapshots, branches, tags, deletedTags });
      await this.store.set("repo", this.#file(payload, FILE_TYPE.repoInfo));
      return;
    }
    const ref = (i) => new TextEncoder().encode(JSON.stringify({ snapshot: idName(this.snapshots[i].id) }));
    for (const [name, i] of Object.entries(branches)) await this.store.set(`refs/branch.${name}/ref.json`, ref(i));
    for (const [name, i] of Object.entries(tags)) await this.store.set(`refs/tag.${name}/ref.json`, ref(i));
    for (const name of deletedTags) await this.store.set(`refs/tag.${name}/ref.json.deleted`, new Uint8Array());
  }
}

/**
 * Copies the Zarr v3 hierarchy in `source` (a listable store) into a new repository in
 * `target` as one commit on `main` (after the initial snapshot): chunks become native chunk
 * files with the same bytes. Resolves the writer.
 */
export async function icechunkFromZarr(source, target, { specVersion = 2, splitSize } = {}) {
  const writer = new IcechunkWriter(target, { specVersion });
  await writer.init();
  const nodes = [];
  const keys = [];
  for await (const key of source.list()) keys.push(key);
  for (const key of keys.filter((k) => k === "zarr.json" || k.endsWith("/zarr.json"))) {
    const path = key === "zarr.json" ? "" : key.slice(0, -"/zarr.json".length);
    const metadata = JSON.parse(new TextDecoder().decode(await source.get(key)));
    const node = { path: `/${path}`, metadata, chunks: [] };
    if (metadata.node_type === "array") {
      const prefix = path === "" ? "c/" : `${path}/c/`;
      for (const chunkKey of keys.filter((k) => k.startsWith(prefix))) {
        const index = chunkKey.slice(prefix.length).split("/").map(Number);
        node.chunks.push({ index, ...(await writer.writeChunk(await source.get(chunkKey))) });
      }
    }
    nodes.push(node);
  }
  const head = await writer.commit("copied from a Zarr store", nodes, { splitSize });
  await writer.finish({ branches: { main: head } });
  return writer;
}
