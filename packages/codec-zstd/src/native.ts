/**
 * libzstd through `node:zlib`, when the running Node has it (≥ 22.15 / 23.8): native
 * compression on libuv's thread pool, much faster than the TypeScript encoder. Found by
 * feature detection at run time; browsers and older Node never load it.
 */

/** The part of `node:zlib` this module uses (absent from older @types/node). */
export interface ZlibWithZstd {
  zstdCompress?: (
    input: Uint8Array,
    options: { params: Record<number, number>; pledgedSrcSize?: number },
    callback: (error: Error | null, result: Uint8Array) => void,
  ) => void;
  constants: Record<string, number>;
}

let loaded: Promise<ZlibWithZstd | undefined> | undefined;

/** `node:zlib` when it can compress zstd, otherwise undefined (memoised). */
export function loadNativeZlib(): Promise<ZlibWithZstd | undefined> {
  if (loaded === undefined) {
    loaded = (async () => {
      if (typeof process === "undefined" || typeof process.versions?.node !== "string") return undefined;
      try {
        // A computed specifier keeps bundlers for the browser from trying to resolve it.
        const specifier = "node:zlib";
        const zlib = (await import(/* @vite-ignore */ specifier)) as ZlibWithZstd;
        const ok =
          typeof zlib.zstdCompress === "function" &&
          typeof zlib.constants?.ZSTD_c_compressionLevel === "number" &&
          typeof zlib.constants?.ZSTD_c_checksumFlag === "number";
        return ok ? zlib : undefined;
      } catch {
        return undefined;
      }
    })();
  }
  return loaded;
}

/** True when a zstd frame's header carries Frame_Content_Size. */
export function frameHasContentSize(frame: Uint8Array): boolean {
  if (frame.length < 5) return false;
  const descriptor = frame[4];
  return descriptor >> 6 !== 0 || (descriptor & 0x20) !== 0;
}

/**
 * Compresses with `zlib`'s libzstd. Resolves undefined when the result lacks
 * Frame_Content_Size (older readers such as numcodecs < 0.13 need it), so the caller
 * falls back to the TypeScript encoder, which always writes it.
 */
export function compressWithZlib(
  zlib: ZlibWithZstd,
  input: Uint8Array,
  level: number,
  checksum: boolean,
): Promise<Uint8Array | undefined> {
  const compress = zlib.zstdCompress;
  if (compress === undefined) return Promise.resolve(undefined);
  const params: Record<number, number> = {
    [zlib.constants.ZSTD_c_compressionLevel]: level,
    [zlib.constants.ZSTD_c_checksumFlag]: checksum ? 1 : 0,
  };
  return new Promise((resolve, reject) => {
    compress(input, { params, pledgedSrcSize: input.length }, (error, result) => {
      if (error) reject(error);
      else {
        const bytes = new Uint8Array(result.buffer, result.byteOffset, result.byteLength);
        resolve(frameHasContentSize(bytes) ? bytes : undefined);
      }
    });
  });
}
