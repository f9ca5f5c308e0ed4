/**
 * Other storage layouts seen through the Zarr v3 model. A "format" registry entry reads
 * nodes of another layout (Zarr v2's `.zarray`/`.zgroup`, the early v3 draft's
 * `meta/…`) and describes them as v3 metadata, so `open`, `get`, `set`, `children` and
 * `walk` work on them unchanged. Nodes read this way carry a {@link NodeFormat}: the
 * hooks through which writes (attributes, resize, consolidation) go back to that
 * layout's own documents. Zarr v3 (`zarr.json`) is always tried first.
 */
import { type Store, throwIfAborted } from "@zarr/spec";
import type { NodeEntry } from "./nodes.js";
import type { LoadedFormatEntry, Registry } from "./registry.js";

export type { FormatWriteOptions, NodeFormat } from "./nodes.js";

/** What a format entry gets when asked for a node. */
export interface FormatReadOptions {
  /** The registry of the caller (e.g. to learn a codec's kind). */
  registry: Registry;
  signal?: AbortSignal;
}

/**
 * A storage format other than Zarr v3, as registered: `read` describes the node at a
 * path in the v3 model (metadata only, no codec resolved), or resolves `undefined`
 * when the format has no node there.
 *
 * @example
 * ```ts
 * const registry = createRegistry([v2Format]); // from @zarr/v2-compat
 * const node = await open(store, "t2m", { registry }); // a .zarray is found when there is no zarr.json
 * ```
 */
export interface FormatEntry extends LoadedFormatEntry {
  readonly type: "format";
  readonly name: string;
  readonly package?: string;
  read(store: Store, path: string, options: FormatReadOptions): Promise<NodeEntry | undefined>;
}

/** A format entry whose implementation is loaded on first use. */
export interface LazyFormatEntry {
  readonly type: "format";
  readonly name: string;
  readonly package?: string;
  readonly lazy: true;
  load(): Promise<FormatEntry>;
}

/** Any format entry. */
export type AnyFormatEntry = FormatEntry | LazyFormatEntry;

/**
 * Asks the registry's `"format"` entries (Zarr v2, the early v3 draft, ...), in order,
 * for the node at `path`; the first that has one answers.
 */
export async function readFormatEntry(store: Store, path: string, registry: Registry, signal?: AbortSignal): Promise<NodeEntry | undefined> {
  // The registry holds format entries without knowing their contract (it sits below this
  // module); what `add` accepts as a loaded format is a `FormatEntry`.
  for (const format of (await registry.formats()) as FormatEntry[]) {
    throwIfAborted(signal);
    const entry = await format.read(store, path, { registry, signal });
    if (entry !== undefined) return entry;
  }
  return undefined;
}
