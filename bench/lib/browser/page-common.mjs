// What both libraries' bench pages share (bundled into each page): filling an in-page store
// before timing, checksums of results, and the `globalThis.bench` object browser.mjs calls.

/** Fetches `keys` under the store URL `base` into a Map (key → bytes): the in-page store's contents. */
export async function fetchKeys(base, keys) {
  const entries = await Promise.all(
    keys.map(async (key) => {
      const response = await fetch(new URL(key, base));
      if (!response.ok) throw new Error(`GET ${key}: ${response.status}`);
      return [key, new Uint8Array(await response.arrayBuffer())];
    }),
  );
  return new Map(entries);
}

/** FNV-1a over the 32-bit words of a float32 result, with its length: equal results have equal sums. */
export function checksum(data) {
  const words = new Uint32Array(data.buffer, data.byteOffset, data.byteLength >>> 2);
  let hash = 0x811c9dc5;
  for (let i = 0; i < words.length; i++) hash = Math.imul(hash ^ words[i], 0x01000193);
  return { length: data.length, checksum: (hash >>> 0).toString(16), shared: data.buffer instanceof SharedArrayBuffer };
}

/**
 * Installs `globalThis.bench` for browser.mjs over a library's `open(options)`, which resolves
 * a reader `{ read(source, mode) → Promise<Float32Array> }` of the region `options.region`
 * (`[start, stop)` on both axes, or null: everything) of the array at `options.url`; sources
 * "memory" (the store's `options.keys`, fetched before timing) and "http"; modes "main" and,
 * for @zarr, "pool".
 */
export function installBench(open) {
  let reader;
  globalThis.bench = {
    isolated: globalThis.crossOriginIsolated === true,
    async open(options) {
      reader = await open(options);
    },
    /** Milliseconds of one read (a fresh result each time). */
    async time(source, mode) {
      const t0 = performance.now();
      await reader.read(source, mode);
      return performance.now() - t0;
    },
    async verify(source, mode) {
      return checksum(await reader.read(source, mode));
    },
  };
}
