/** The `default` (`c/0/1`) and `v2` (`0.1`) chunk key encodings. */
import {
  type ChunkKeyEncoding,
  type ChunkKeyEncodingEntry,
  describeJson,
  type JsonObject,
  type JsonPath,
  MetadataError,
} from "@zarr/spec";

function separatorOf(configuration: JsonObject, fallback: "/" | ".", path: JsonPath): "/" | "." {
  for (const k of Object.keys(configuration)) {
    if (k !== "separator") throw new MetadataError([...path, "configuration", k], `unknown configuration field "${k}"`);
  }
  const sep = configuration.separator ?? fallback;
  if (sep !== "/" && sep !== ".") {
    throw new MetadataError([...path, "configuration", "separator"], `expected "/" or ".", got ${describeJson(sep)}`);
  }
  return sep;
}

function parseIndices(parts: string[]): number[] | undefined {
  const out: number[] = [];
  for (const p of parts) {
    if (!/^(0|[1-9]\d*)$/.test(p)) return undefined;
    out.push(Number(p));
  }
  return out;
}

/** What both encodings share: a separator, and the JSON form naming it. */
abstract class SeparatedKeyEncoding implements ChunkKeyEncoding {
  abstract readonly name: "default" | "v2";
  constructor(readonly separator: "/" | ".") {}
  abstract encode(coords: readonly number[]): string;
  abstract decode(key: string, ndim: number): number[] | undefined;
  toJSON() {
    return { name: this.name, configuration: { separator: this.separator } };
  }
}

/** `c` + separator-joined coordinates; `c` for 0-d arrays. */
export class DefaultKeyEncoding extends SeparatedKeyEncoding {
  readonly name = "default";
  encode(coords: readonly number[]): string {
    let key = "c";
    for (const c of coords) key += this.separator + c;
    return key;
  }
  decode(key: string, ndim: number): number[] | undefined {
    if (ndim === 0) return key === "c" ? [] : undefined;
    if (!key.startsWith(`c${this.separator}`)) return undefined;
    const parts = key.slice(2).split(this.separator);
    return parts.length === ndim ? parseIndices(parts) : undefined;
  }
}

/** Separator-joined coordinates as in Zarr v2; `0` for 0-d arrays. */
export class V2KeyEncoding extends SeparatedKeyEncoding {
  readonly name = "v2";
  encode(coords: readonly number[]): string {
    return coords.length === 0 ? "0" : coords.join(this.separator);
  }
  decode(key: string, ndim: number): number[] | undefined {
    if (ndim === 0) return key === "0" ? [] : undefined;
    const parts = key.split(this.separator);
    return parts.length === ndim ? parseIndices(parts) : undefined;
  }
}

/** The `default` key encoding entry (separator `/` unless configured). */
export const defaultChunkKeyEncoding: ChunkKeyEncodingEntry = {
  type: "chunk_key_encoding",
  name: "default",
  fromConfig: (configuration, path) => new DefaultKeyEncoding(separatorOf(configuration, "/", path)),
};

/** The `v2` key encoding entry (separator `.` unless configured). */
export const v2ChunkKeyEncoding: ChunkKeyEncodingEntry = {
  type: "chunk_key_encoding",
  name: "v2",
  fromConfig: (configuration, path) => new V2KeyEncoding(separatorOf(configuration, ".", path)),
};

/** Built-in key encoding entries. */
export const builtinChunkKeyEncodings: readonly ChunkKeyEncodingEntry[] = [defaultChunkKeyEncoding, v2ChunkKeyEncoding];
