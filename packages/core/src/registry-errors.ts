/**
 * The errors of registry lookups: a name the registry does not have (with a hint saying
 * which package provides it), and a lazy entry that failed to load. Loaded only when a
 * lookup fails.
 */
import type { ExtensionEntry, JsonPath } from "@zarr/spec";
import { formatJsonPath, ZarrError } from "./up-front.js";

type EntryType = ExtensionEntry["type"];

const KIND_LABEL: Record<EntryType, string> = {
  codec: "Codec",
  data_type: "Data type",
  chunk_grid: "Chunk grid",
  chunk_key_encoding: "Chunk key encoding",
  store: "Store for URL scheme",
  storage_transformer: "Storage transformer",
};

/** How to add a missing entry. */
const ADD_IT = "add its entry to the registry (createRegistry([...]) or defaultRegistry.add(...)), or use @zarr/all";

/** `CODEC_UNKNOWN` for a codec, `UNSUPPORTED` for other entries: names the entry, where it was asked for, and how to get it. */
export function unknownEntry(
  type: EntryType,
  name: string,
  site: { key?: string; path?: JsonPath },
  providerOf: ((type: EntryType, name: string) => string | undefined) | undefined,
): ZarrError {
  const where = [
    site.path !== undefined ? `at ${formatJsonPath(site.path)}` : undefined,
    site.key !== undefined ? `in "${site.key}"` : undefined,
  ]
    .filter(Boolean)
    .join(" ");
  const provider = providerOf?.(type, name);
  const hint =
    provider !== undefined
      ? ` It is provided by ${provider}: install it and ${ADD_IT}.`
      : providerOf === undefined && (type === "codec" || type === "store")
        ? // How to get a missing codec or store adapter when no provider table says which package has it.
          ` Install the package that provides it and ${ADD_IT}, which registers every @zarr codec and store.`
        : " No installed package provides it; a third-party package may (add its entry to the registry).";
  return new ZarrError(
    type === "codec" ? "CODEC_UNKNOWN" : "UNSUPPORTED",
    `${KIND_LABEL[type]} "${name}"${where ? ` (${where})` : ""} is not registered.${hint}`,
    { key: site.key, jsonPath: site.path ? formatJsonPath(site.path) : undefined },
  );
}

/** The error of a lazy entry whose `load()` resolved an entry of another type. */
export function wrongLazyEntry(lazy: { type: string; name: string }, loaded: { type: string; name: string }): ZarrError {
  return new ZarrError("UNSUPPORTED", `Lazy ${lazy.type} entry "${lazy.name}" loaded a ${loaded.type} entry named "${loaded.name}"`);
}

/** The error of a lazy entry whose `load()` failed (`what` and `name` say what was being resolved). */
export function lazyLoadFailed(lazy: { package?: string }, what: string, name: string, error: unknown): ZarrError {
  return new ZarrError(
    "UNSUPPORTED",
    `Could not load ${what} "${name}"${lazy.package ? ` from ${lazy.package}` : ""}: ${(error as Error)?.message ?? error}`,
    { cause: error },
  );
}
