/**
 * Branches and tags of spec version 1 repositories: one JSON file per ref,
 * `refs/branch.<name>/ref.json` and `refs/tag.<name>/ref.json` (`{"snapshot": "<id>"}`),
 * and a tombstone `ref.json.deleted` beside a deleted tag's file.
 */
import { isListable, type Store, type StoreRequestOptions } from "@zarr/spec";
import { icechunkError } from "./errors.js";
import { decodeObjectId } from "./object-id.js";

/** Branches or tags. */
export type RefKind = "branch" | "tag";

/** The store key of a v1 ref file. */
export function refKey(kind: RefKind, name: string): string {
  return `refs/${kind}.${name}/ref.json`;
}

/** The snapshot id a v1 ref file holds (`bytes` read from `key`). */
export function parseRefFile(bytes: Uint8Array, key: string): string {
  let id: unknown;
  try {
    id = (JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes)) as { snapshot?: unknown })?.snapshot;
  } catch (error) {
    throw icechunkError("CODEC_FAILED", key, "corrupt ref file: not JSON", error);
  }
  if (typeof id !== "string") throw icechunkError("CODEC_FAILED", key, 'corrupt ref file: no "snapshot" string');
  try {
    decodeObjectId(id, 12);
  } catch (error) {
    throw icechunkError("CODEC_FAILED", key, `corrupt ref file: ${(error as Error).message}`, error);
  }
  return id;
}

/**
 * The snapshot id of v1 ref `name`, or `undefined` when there is no such ref (or the tag
 * was deleted). A tag's tombstone is looked for in the same turn as its file.
 */
export async function readRefV1(storage: Store, kind: RefKind, name: string, options: StoreRequestOptions): Promise<string | undefined> {
  const key = refKey(kind, name);
  const [bytes, tombstone] = await Promise.all([
    storage.get(key, options),
    kind === "tag" ? storage.getSize?.(`${key}.deleted`, options) ?? storage.get(`${key}.deleted`, options) : undefined,
  ]);
  if (bytes === undefined || tombstone !== undefined) return undefined;
  return parseRefFile(bytes, key);
}

/** The names of v1 refs of `kind` (the storage must be listable); deleted tags excluded. */
export async function listRefsV1(storage: Store, kind: RefKind, options: StoreRequestOptions): Promise<string[]> {
  if (!isListable(storage)) {
    throw icechunkError("UNSUPPORTED", "refs/", `listing the ${kind}es of a spec version 1 repository needs a listable store`);
  }
  const names: string[] = [];
  const marker = `${kind}.`;
  for (const dir of (await storage.listDir("refs/", options)).prefixes) {
    if (!dir.startsWith(marker)) continue;
    const { keys } = await storage.listDir(`refs/${dir}/`, options);
    if (keys.includes("ref.json") && !keys.includes("ref.json.deleted")) names.push(dir.slice(marker.length));
  }
  return names.sort();
}
