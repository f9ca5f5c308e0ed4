/**
 * The codecs every registry starts with: `bytes` (eager: nearly every array uses it) and
 * `transpose` (a lazy entry: its module loads the first time a chain has it).
 */
import type { CodecEntry, LazyEntry } from "@zarr/spec";
import { bytesCodec } from "./bytes.js";

/** The `transpose` entry, loaded on first use. */
export const lazyTransposeCodec: LazyEntry<CodecEntry> = {
  type: "codec",
  name: "transpose",
  package: "@zarr/core",
  lazy: true,
  load: () => import("./transpose.js").then((m) => m.transposeCodec),
};

/** Built-in codec entries of a registry. */
export const builtinCodecs: readonly (CodecEntry | LazyEntry<CodecEntry>)[] = [bytesCodec, lazyTransposeCodec];
