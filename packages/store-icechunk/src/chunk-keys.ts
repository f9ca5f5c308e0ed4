/**
 * Chunk keys of an array as its zarr.json names them (`chunk_key_encoding`): `c/0/1`
 * (default, `/`), `c.0.1` (default, `.`), `0.1` (v2, `.`) or `0/1` (v2, `/`); a
 * zero-dimensional array's one chunk is `c` (default) or `0` (v2).
 */

/** Turns key suffixes into chunk coordinates and back. */
export interface ChunkKeyCodec {
  /** The coordinates a key suffix (the part after `<array>/`) names, or `undefined` when it names no chunk. */
  parse(suffix: string): number[] | undefined;
  /** The key suffix of chunk `coords`. */
  format(coords: readonly number[]): string;
  /** The one folder every chunk key starts with (`c` of `c/0/1`), if there is one. */
  folder: string | undefined;
}

/** What the array's metadata says about its chunk keys and grid (only what the store needs). */
export interface ArrayLayout {
  keys: ChunkKeyCodec;
  /** The regular grid's chunk shape, when the metadata declares one. */
  chunkShape: number[] | undefined;
}

const INDEX = /^(0|[1-9][0-9]{0,9})$/;

/** The chunk key codec and chunk shape of the zarr.json `metadata` (already parsed), for an array of `ndim` dimensions. */
export function arrayLayout(metadata: unknown, ndim: number): ArrayLayout {
  const m = (metadata ?? {}) as { chunk_key_encoding?: { name?: unknown; configuration?: { separator?: unknown } }; chunk_grid?: { name?: unknown; configuration?: { chunk_shape?: unknown } } };
  const encoding = m.chunk_key_encoding;
  const v2 = encoding?.name === "v2";
  const separator = encoding?.configuration?.separator === "." || encoding?.configuration?.separator === "/" ? encoding.configuration.separator : v2 ? "." : "/";
  const grid = m.chunk_grid;
  const shape = grid?.name === "regular" ? grid.configuration?.chunk_shape : undefined;
  const chunkShape = Array.isArray(shape) && shape.length === ndim && shape.every((n) => Number.isSafeInteger(n) && n > 0) ? (shape as number[]) : undefined;
  return { keys: chunkKeyCodec(v2 ? "" : "c", separator, ndim), chunkShape };
}

function chunkKeyCodec(prefix: string, separator: string, ndim: number): ChunkKeyCodec {
  if (ndim === 0) {
    const only = prefix === "" ? "0" : prefix;
    return { parse: (suffix) => (suffix === only ? [] : undefined), format: () => only, folder: undefined };
  }
  const lead = prefix === "" ? "" : prefix + separator;
  return {
    parse(suffix) {
      if (!suffix.startsWith(lead)) return undefined;
      const parts = suffix.slice(lead.length).split(separator);
      if (parts.length !== ndim) return undefined;
      const coords: number[] = [];
      for (const part of parts) {
        if (!INDEX.test(part)) return undefined;
        coords.push(Number(part));
      }
      return coords;
    },
    format: (coords) => lead + coords.join(separator),
    folder: prefix !== "" && separator === "/" ? prefix : undefined,
  };
}
