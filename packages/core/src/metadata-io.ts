/** Reading and writing `zarr.json` documents. */
import {
  asZarrError,
  isWritable,
  jsonToBytes,
  type NodeMetadata,
  parseJsonBytes,
  type Store,
  unparsedAttributesThreshold,
  ZarrError,
} from "@zarr/spec";
import { readFailed } from "./engine/store-source.js";
import { metadataKey } from "./paths.js";
import { parsePlainMetadata } from "./plain-metadata.js";

/**
 * Reads and parses the `zarr.json` of the node at `path`; `undefined` when there is none.
 * A big document keeps its attributes unparsed until they are read (`unparsedAttributes`).
 */
export async function readNodeMetadata(
  store: Store,
  path: string,
  signal?: AbortSignal,
): Promise<NodeMetadata | undefined> {
  const key = metadataKey(path);
  let bytes: Uint8Array | undefined;
  try {
    bytes = await store.get(key, { signal });
  } catch (error) {
    throw readFailed(error, key);
  }
  if (bytes === undefined) return undefined;
  if (bytes.length >= unparsedAttributesThreshold.bytes) return (await import("./unparsed-metadata.js")).parseKeepingAttributes(bytes, key);
  const doc = parseJsonBytes(bytes, key);
  // Plain documents need no validator; others (and every invalid one) get the full one.
  const plain = parsePlainMetadata(doc);
  if (plain !== undefined) return plain;
  const { parseNodeMetadata } = await import("./metadata-documents.js");
  return parseNodeMetadata(doc, { key });
}

/** Writes the `zarr.json` of the node at `path`. */
export async function writeNodeMetadata(
  store: Store,
  path: string,
  metadata: NodeMetadata,
  signal?: AbortSignal,
): Promise<void> {
  const key = metadataKey(path);
  if (!isWritable(store)) throw new ZarrError("STORE_READ_ONLY", `Cannot write "${key}": the store is not writable`, { key });
  const { nodeMetadataToJson } = await import("./metadata-documents.js");
  try {
    await store.set(key, jsonToBytes(nodeMetadataToJson(metadata)), { signal });
  } catch (error) {
    throw asZarrError(error, "STORE_FAILED", `Could not write "${key}"`, key);
  }
}
