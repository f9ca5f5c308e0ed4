/**
 * Snapshot files (`snapshots/<id>`): the whole hierarchy of one commit. Every node's
 * path, Zarr metadata (`user_data`, the node's zarr.json) and, for arrays, the chunk
 * grid's extent and the manifests holding its chunk references.
 */
import { FileType, openFile } from "./file-header.js";
import { FlatBuffer, readU64, type Table } from "./flatbuffer.js";
import { encodeObjectId } from "./object-id.js";

/** Chunk coordinates `[from, to)` of one dimension that a manifest covers. */
export interface ExtentRange {
  from: number;
  to: number;
}

/** A pointer from an array to one manifest holding part of its chunk references. */
export interface ManifestPointer {
  /** Manifest id (Crockford base 32). */
  id: string;
  /** One range per array dimension. */
  extents: ExtentRange[];
}

/** What a snapshot says about an array beyond its zarr.json. */
export interface ArrayNodeData {
  /** Array length per dimension. */
  shape: number[];
  /** Chunks per dimension (spec 2), or the chunk length per dimension (spec 1, to be checked against the metadata). */
  numChunks: number[] | undefined;
  chunkLengths: number[] | undefined;
  dimensionNames: (string | null)[] | undefined;
  manifests: ManifestPointer[];
}

/** One group or array of a snapshot. */
export interface SnapshotNode {
  /** Node id, hex (8 bytes); manifests key chunk references by it. */
  nodeId: Uint8Array;
  /** Absolute path (`/`, `/group1/array`). */
  path: string;
  /** The node's zarr.json bytes. */
  userData: Uint8Array;
  kind: "group" | "array";
  array: ArrayNodeData | undefined;
}

/** A parsed snapshot file. */
export interface Snapshot {
  id: string;
  /** Spec 1 snapshots name their parent; spec 2 keeps parents in the repo info file. */
  parentId: string | undefined;
  flushedAtMicros: number;
  message: string;
  specVersion: number;
  /** Every node, by path without the leading `/` (`""` for the root). */
  nodes: Map<string, SnapshotNode>;
  /** Ids of every manifest file the snapshot points to. */
  manifestFiles: string[];
}

/** The store key of snapshot `id`. */
export function snapshotKey(id: string): string {
  return `snapshots/${id}`;
}

const NODE_GROUP = 2;
const NODE_ARRAY = 1;

/** Parses the snapshot file stored under `object`. */
export function parseSnapshot(bytes: Uint8Array, object: string, maxBytes: number): Snapshot {
  const { header, payload } = openFile(bytes, object, FileType.Snapshot, maxBytes);
  const fb = new FlatBuffer(payload, object);
  const root = fb.root("the snapshot");
  const idAt = root.requiredStruct(0, 12, "id");
  const parentAt = root.struct(1, 12, "parent_id");
  const list = root.requiredTables(2, "nodes");
  const nodes = new Map<string, SnapshotNode>();
  for (let i = 0; i < list.length; i++) {
    const node = parseNode(fb, list.at(i));
    const key = node.path === "/" ? "" : node.path.slice(1);
    if (nodes.has(key)) fb.fail(`two nodes have the path "${node.path}"`);
    nodes.set(key, node);
  }
  return {
    id: encodeObjectId(fb.bytes.subarray(idAt, idAt + 12)),
    parentId: parentAt === 0 ? undefined : encodeObjectId(fb.bytes.subarray(parentAt, parentAt + 12)),
    flushedAtMicros: root.u64(3, "flushed_at"),
    message: root.requiredString(4, "message"),
    specVersion: header.specVersion,
    nodes,
    manifestFiles: manifestFileIds(fb, root),
  };
}

/** Spec 1 lists manifest files as 32-byte structs (id, size, count, padding), spec 2 as tables. */
const MANIFEST_FILE_INFO_V1_BYTES = 32;

function manifestFileIds(fb: FlatBuffer, root: Table): string[] {
  const ids: string[] = [];
  const v2 = root.tables(7, "manifest_files_v2");
  if (v2 !== undefined && v2.length > 0) {
    for (let i = 0; i < v2.length; i++) {
      const at = v2.at(i).requiredStruct(0, 12, "id");
      ids.push(encodeObjectId(fb.bytes.subarray(at, at + 12)));
    }
    return ids;
  }
  const v1 = root.requiredVector(6, MANIFEST_FILE_INFO_V1_BYTES, "manifest_files");
  for (let i = 0; i < v1.length; i++) {
    const at = v1.start + MANIFEST_FILE_INFO_V1_BYTES * i;
    ids.push(encodeObjectId(fb.bytes.subarray(at, at + 12)));
  }
  return ids;
}

function parseNode(fb: FlatBuffer, node: Table): SnapshotNode {
  const idAt = node.requiredStruct(0, 8, "id");
  const path = node.requiredString(1, "path");
  if (!(path === "/" || (path.startsWith("/") && !path.endsWith("/") && !path.slice(1).split("/").some((s) => s === "" || s === "." || s === "..")))) {
    fb.fail(`node path ${JSON.stringify(path)} is not an absolute canonical path`);
  }
  const userData = node.bytes(2, "user_data") ?? node.missing("user_data");
  const type = node.u8(3, "node_data_type");
  const data = node.table(4, "node_data") ?? node.missing("node_data");
  const base = { nodeId: fb.bytes.subarray(idAt, idAt + 8), path, userData };
  if (type === NODE_GROUP) return { ...base, kind: "group", array: undefined };
  if (type !== NODE_ARRAY) fb.fail(`node "${path}" has an unknown node type ${type}`);
  return { ...base, kind: "array", array: parseArrayData(fb, data, path) };
}

function parseArrayData(fb: FlatBuffer, data: Table, path: string): ArrayNodeData {
  const what = `array "${path}"`;
  const shapeV1 = data.requiredVector(0, 16, "shape");
  const shapeV2 = data.tables(3, "shape_v2");
  const shape: number[] = [];
  let numChunks: number[] | undefined;
  let chunkLengths: number[] | undefined;
  if (shapeV2 !== undefined && shapeV2.length > 0) {
    numChunks = [];
    for (let d = 0; d < shapeV2.length; d++) {
      const dim = shapeV2.at(d);
      shape.push(dim.u64(0, "array_length"));
      numChunks.push(dim.u32(1, "num_chunks"));
    }
  } else {
    chunkLengths = [];
    for (let d = 0; d < shapeV1.length; d++) {
      const at = shapeV1.start + 16 * d;
      shape.push(readU64(fb, at, `the length of dimension ${d} of ${what}`));
      chunkLengths.push(readU64(fb, at + 8, `the chunk length of dimension ${d} of ${what}`));
    }
  }
  const names = data.tables(1, "dimension_names");
  let dimensionNames: (string | null)[] | undefined;
  if (names !== undefined) {
    dimensionNames = [];
    for (let d = 0; d < names.length; d++) dimensionNames.push(names.at(d).string(0, "name") ?? null);
  }
  const refs = data.requiredTables(2, "manifests");
  const manifests: ManifestPointer[] = [];
  for (let m = 0; m < refs.length; m++) {
    const ref = refs.at(m);
    const idAt = ref.requiredStruct(0, 12, "object_id");
    const ranges = ref.requiredVector(1, 8, "extents");
    const extents: ExtentRange[] = [];
    for (let d = 0; d < ranges.length; d++) {
      const at = ranges.start + 8 * d;
      extents.push({ from: fb.view.getUint32(at, true), to: fb.view.getUint32(at + 4, true) });
    }
    manifests.push({ id: encodeObjectId(fb.bytes.subarray(idAt, idAt + 12)), extents });
  }
  return { shape, numChunks, chunkLengths, dimensionNames, manifests };
}
