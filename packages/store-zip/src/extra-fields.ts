/** Walking the extra field of a zip header: a sequence of (id u16, size u16, data) blocks. */
import { u16 } from "./zip-format.js";

/**
 * The data of the first extra block with `id`, or `undefined`. A block whose size runs
 * past the end of the field ends the walk (some writers pad the field with zeros).
 */
export function findExtraField(extra: Uint8Array, id: number): Uint8Array | undefined {
  let at = 0;
  while (at + 4 <= extra.length) {
    const blockId = u16(extra, at);
    const size = u16(extra, at + 2);
    const start = at + 4;
    if (start + size > extra.length) return undefined;
    if (blockId === id) return extra.subarray(start, start + size);
    at = start + size;
  }
  return undefined;
}
