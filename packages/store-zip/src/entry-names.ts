/**
 * Entry names: decoding (UTF-8 when flag bit 11 is set or an Info-ZIP Unicode Path extra
 * field vouches for it, CP437 otherwise) and normalising them into store keys.
 */
import { validateKey } from "@zarr/spec";
import { decodeCp437 } from "./cp437.js";
import { crc32 } from "./crc32.js";
import { findExtraField } from "./extra-fields.js";
import { FLAG_UTF8, UNICODE_PATH_EXTRA_ID, u32 } from "./zip-format.js";

const utf8 = new TextDecoder("utf-8");

/** Decodes the raw name bytes of a central directory header. */
export function decodeEntryName(raw: Uint8Array, flags: number, extra: Uint8Array): string {
  if (flags & FLAG_UTF8) return utf8.decode(raw);
  // Info-ZIP Unicode Path (0x7075): version 1, CRC-32 of the raw name, then the UTF-8 name.
  // The CRC guards against a stale field left behind after the name was changed.
  const unicode = findExtraField(extra, UNICODE_PATH_EXTRA_ID);
  if (unicode !== undefined && unicode.length >= 5 && unicode[0] === 1 && u32(unicode, 1) === crc32(raw)) {
    return utf8.decode(unicode.subarray(5));
  }
  return decodeCp437(raw);
}

/** What an entry name means for the store. */
export type NormalisedName =
  | { kind: "file"; key: string }
  | { kind: "directory"; key: string }
  | { kind: "rejected"; reason: string };

/**
 * Turns an entry name into a store key: leading `/` and `./` are dropped, as are empty
 * and `.` segments (`a//b`, `a/./b`); names ending in `/` are directories (not keys);
 * names with a `..` segment (which would escape the archive root) or that are otherwise
 * not valid keys (backslashes, NUL, drive letters) are rejected with the reason.
 */
export function normaliseEntryName(name: string): NormalisedName {
  const directory = name.endsWith("/");
  const segments: string[] = [];
  for (const segment of name.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") return { kind: "rejected", reason: 'has a ".." segment (escapes the archive root)' };
    segments.push(segment);
  }
  const key = segments.join("/");
  if (key === "") return { kind: "directory", key: "" };
  try {
    validateKey(key);
  } catch (error) {
    return { kind: "rejected", reason: error instanceof Error ? error.message : String(error) };
  }
  return { kind: directory ? "directory" : "file", key };
}
