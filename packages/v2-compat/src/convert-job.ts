/**
 * `convertJob`: `convert` into another store as a partitioned job (see `planParts`,
 * `runPart`, `initJob` and `finalizeJob` of @zarr/store-utils): one unit per converted
 * chunk, the v3 documents (and consolidated metadata) as the setup written once.
 */
import { consolidateMetadata, defaultRegistry, normalizePath, resolveArray, writeNodeMetadata, type ZarrGroup, type ZarrNode } from "@zarr/core";
import { isWritable, type JsonValue, type Store, ZarrError } from "@zarr/spec";
import type { PartitionedJob, WorkUnit } from "@zarr/store-utils";
import { type ConvertOptions, copyChunk, hierarchyNodes, isConvertible, planArray, rewriteChunk, type SkippedArray, v3KeyEncoding } from "./convert.js";
import { join, prefixOf } from "./store-io.js";

/** Options of {@link convertJob}: `convert`'s, without `inPlace`, plus the job's name. */
export interface ConvertJobOptions extends Pick<ConvertOptions, "path" | "variableLengthStrings" | "consolidate" | "registry" | "strict"> {
  /**
   * Names the job, such as the source and target URLs: part markers of jobs with different
   * names never mix. Every process of one job must pass the same.
   */
  name?: string;
}

/** A conversion job; `skipped` lists the unreadable arrays left out, once the job has been prepared. */
export interface ConvertJob extends PartitionedJob {
  readonly skipped: readonly SkippedArray[];
}

/**
 * `convert(node, { target, path })` as a job for `planParts`/`runPart`/`initJob`/
 * `finalizeJob` of @zarr/store-utils. Each stored chunk is a unit that writes its one
 * target chunk (copied byte for byte, or decoded and encoded again where `convert` rewrites
 * it), so parts are chunk-aligned and never share an object; the v3 documents of every
 * node, and the consolidated metadata, are the setup, written once by `initJob` or
 * `finalizeJob`. The result is byte for byte what `convert` writes. With `resume`, a copied
 * chunk the target holds with the source's size is skipped, and a rewritten one when it
 * decodes to the source's values.
 *
 * In-place conversion is not a job and is refused: for Zarr v2 it only swaps documents
 * (no chunk work to split), and for the early draft it moves chunks and then deletes the
 * old keys and documents, which must happen once, after every chunk moved, and cannot be
 * made idempotent across crashed parts without a second copy of the keys.
 *
 * @example
 * ```ts
 * const job = convertJob(await open(v2Store, ""), s3, { name: "v2.zarr -> s3://b/v3.zarr" });
 * await runPart(job, Number(process.env.JOB_COMPLETION_INDEX), 8, { resume: true });
 * ```
 */
export function convertJob(node: ZarrNode, target: Store, options: ConvertJobOptions = {}): ConvertJob {
  if (!isConvertible(node)) {
    throw new ZarrError("INVALID_ARGUMENT", `"${node.path || "/"}" is not a Zarr v2 or early-draft node (nothing to convert)`);
  }
  if (!isWritable(target)) throw new ZarrError("STORE_READ_ONLY", "Cannot convert: the target store is not writable");
  const basePath = normalizePath(options.path ?? "");
  if (target === node.store && basePath === node.path) {
    throw new ZarrError(
      "INVALID_ARGUMENT",
      "In-place conversion cannot run in parts (it replaces the old documents once, after every chunk): convert into another store, or in place in one process",
    );
  }
  const registry = options.registry ?? node.registry ?? defaultRegistry;
  const strict = options.strict ?? false;
  const where = (p: string) => join(basePath, node.path === "" ? p : p.slice(node.path.length + 1));
  const skipped: SkippedArray[] = [];
  return {
    kind: "convert",
    target,
    skipped,
    describe: (): JsonValue => ({
      name: options.name ?? null,
      from: node.path,
      path: basePath,
      variableLengthStrings: options.variableLengthStrings ?? false,
      consolidate: options.consolidate ?? null,
      strict,
    }),
    async prepare(store, signal) {
      const found = await hierarchyNodes(node, strict, signal);
      skipped.splice(0, skipped.length, ...found.skipped);
      const units: WorkUnit[] = [];
      for (const n of found.nodes) {
        if (n.kind !== "array") continue;
        const plan = await planArray(n, where(n.path), false, { variableLengthStrings: options.variableLengthStrings, signal });
        await writeNodeMetadata(store, plan.targetPath, plan.metadata, signal);
        const source = plan.source;
        if (plan.mode === "rewritten") {
          const dst = await resolveArray(store, plan.targetPath, plan.metadata, { registry, writeEmptyChunks: true });
          for (const { coords } of plan.chunks) {
            units.push({
              keys: [dst.chunkKey(coords)],
              run: async (o) => ({ skipped: (await rewriteChunk(source, dst, coords, o)).skipped, bytes: 0 }),
            });
          }
          continue;
        }
        const encoding = v3KeyEncoding(plan.metadata);
        const prefix = prefixOf(plan.targetPath);
        for (const { coords, key } of plan.chunks) {
          const dst = prefix + encoding.encode(coords);
          units.push({ keys: [dst], run: (o) => copyChunk(source.store, key, store, dst, o) });
        }
      }
      for (const n of found.nodes) {
        if (n.kind === "group") await writeNodeMetadata(store, where(n.path), { zarr_format: 3, node_type: "group", attributes: n.attributes }, signal);
      }
      const root = found.nodes[0];
      const consolidate = options.consolidate ?? (root.kind === "group" && (root as ZarrGroup).consolidated !== undefined);
      if (consolidate && root.kind === "group") await consolidateMetadata(store, basePath, { registry, signal });
      return { units };
    },
  };
}
