/**
 * Request headers for http(s) stores from the command line: `--header 'Name: value'`
 * (repeatable) and the `ZARR_HTTP_HEADERS` environment variable (`Name: value` entries
 * separated by newlines or `\r\n`, as GDAL's `GDAL_HTTP_HEADERS`). Header values are
 * secrets as often as not (tokens, keys): no message here ever quotes one, only names and
 * positions.
 */
import { ZarrError } from "@zarr/spec";

/** The environment variable the CLI reads headers from. */
export const HEADERS_ENV = "ZARR_HTTP_HEADERS";

/** A header field name (an HTTP token). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** What a header value may not hold (fetch's `Headers` refuses these, and anything past Latin-1). */
const FORBIDDEN_IN_VALUE = /[\0\r\n\u0100-\uffff]/;

/**
 * One `Name: value` entry as a `[name, value]` pair (value trimmed), or a ZarrError
 * `INVALID_ARGUMENT` naming `where` and, when it is well formed, the header name.
 */
export function parseHeaderEntry(entry: string, where: string): [string, string] {
  const colon = entry.indexOf(":");
  const name = colon < 0 ? "" : entry.slice(0, colon).trim();
  if (colon < 0 || !TOKEN.test(name)) {
    throw new ZarrError("INVALID_ARGUMENT", `${where}: expected "Name: value" (a header name, a colon, its value)`);
  }
  const value = entry.slice(colon + 1).trim();
  if (FORBIDDEN_IN_VALUE.test(value)) throw new ZarrError("INVALID_ARGUMENT", `${where}: the value of header ${name} holds a NUL, a line break or a character past Latin-1 (U+00FF)`);
  return [name, value];
}

/** The entries of a `ZARR_HTTP_HEADERS` text (blank lines skipped). */
export function parseHeaderLines(text: string, source: string): [string, string][] {
  const out: [string, string][] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() !== "") out.push(parseHeaderEntry(line, `${source} line ${i + 1}`));
  });
  return out;
}

/**
 * The headers for http(s) stores: `ZARR_HTTP_HEADERS` from `env`, then each `--header`; a
 * name given again (in either, any case) takes the later value, so `--header` overrides
 * the environment. `undefined` when there are none.
 */
export function commandHeaders(flags: readonly string[] | undefined, env: Record<string, string | undefined> = process.env): Record<string, string> | undefined {
  const entries = parseHeaderLines(env[HEADERS_ENV] ?? "", HEADERS_ENV);
  (flags ?? []).forEach((flag, i) => {
    entries.push(parseHeaderEntry(flag, `--header #${i + 1}`));
  });
  if (entries.length === 0) return undefined;
  const headers: Record<string, string> = {};
  for (const [name, value] of entries) headers[name.toLowerCase()] = value;
  return headers;
}
