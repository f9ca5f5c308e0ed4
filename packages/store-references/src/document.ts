/**
 * kerchunk reference documents (JSON), version 0 and version 1, as a table from store key
 * to where its bytes are: inline in the document, a whole target file, or a byte range of
 * one. Every entry is checked here, so a bad document fails when it is opened, naming the
 * key, not when a chunk is read.
 *
 * - Version 0: the document is the table. A value is text (inline; `base64:` prefixes
 *   base64), `[url]` or `[url, offset, length]`; a JSON object value is inline JSON.
 * - Version 1: `{"version": 1, "templates": {...}, "refs": {...}, "gen": [...]}`. URLs in
 *   `refs` may use `{{name}}` templates; each `gen` entry makes one reference per point of
 *   its dimensions' product (the last dimension varying fastest), its key, url, offset and
 *   length rendered with the dimensions' values (see `renderTemplate`).
 *
 * A `null` URL means the document's default target (`ReferenceOptions.target`).
 */
import { decodeBase64, describeJson, isJsonObject, type JsonValue, ZarrError } from "@zarr/spec";
import { renderTemplate, type TemplateValue } from "./template.js";

/** Where a key's bytes are. */
export type Reference =
  | { readonly kind: "inline"; readonly bytes: Uint8Array }
  | { readonly kind: "whole"; readonly url: string }
  | { readonly kind: "range"; readonly url: string; readonly offset: number; readonly length: number };

/** How a reference document is read. */
export interface ReferenceDocumentOptions {
  /** Names the document in error messages (its key or URL). */
  where?: string;
  /** The target of references whose URL is `null`. */
  target?: string;
  /** Template values replacing the document's own (as fsspec's `template_overrides`). */
  templates?: Readonly<Record<string, string>>;
  /** The most references a document may make (`gen` can describe billions). Default 10,000,000. */
  maxReferences?: number;
}

/** Default {@link ReferenceDocumentOptions.maxReferences}. */
export const DEFAULT_MAX_REFERENCES = 10_000_000;

function invalid(where: string, problem: string, key?: string): never {
  throw new ZarrError("METADATA_INVALID", `Invalid reference document ${where}${key === undefined ? "" : ` at key ${JSON.stringify(key)}`}: ${problem}`, {
    key,
  });
}

/** A byte offset or length: a non-negative integer below 2^53. */
function byteCount(value: unknown, what: string, where: string, key: string): number {
  const n = typeof value === "string" && /^\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0) {
    invalid(where, `the ${what} must be a non-negative integer, got ${describeJson(value as JsonValue)}`, key);
  }
  return n;
}

const utf8 = new TextEncoder();

/** The reference a document's value makes (version 0 and version 1 `refs`). */
function referenceOf(value: JsonValue, key: string, where: string, urlOf: (url: string) => string, target: string | undefined): Reference {
  if (typeof value === "string") {
    if (!value.startsWith("base64:")) return { kind: "inline", bytes: utf8.encode(value) };
    const bytes = decodeBase64(value.slice(7));
    if (bytes === undefined) invalid(where, "the inline value is not valid base64", key);
    return { kind: "inline", bytes };
  }
  if (isJsonObject(value)) return { kind: "inline", bytes: utf8.encode(JSON.stringify(value)) };
  if (!Array.isArray(value) || (value.length !== 1 && value.length !== 3)) {
    invalid(where, `expected text, [url] or [url, offset, length], got ${describeJson(value)}`, key);
  }
  const raw = value[0];
  if (raw !== null && typeof raw !== "string") invalid(where, `the URL must be text or null, got ${describeJson(raw)}`, key);
  const url = raw === null ? target : urlOf(raw);
  if (url === undefined || url === "") invalid(where, "the URL is null and no default target was given", key);
  if (value.length === 1) return { kind: "whole", url };
  return { kind: "range", url, offset: byteCount(value[1], "offset", where, key), length: byteCount(value[2], "length", where, key) };
}

/** Shares one string per distinct URL (a reference set names a few files many times). */
function interner(): (url: string) => string {
  const seen = new Map<string, string>();
  return (url) => {
    let kept = seen.get(url);
    if (kept === undefined) {
      kept = url;
      seen.set(url, url);
    }
    return kept;
  };
}

/**
 * The references of a parsed kerchunk JSON document, by key.
 *
 * @example
 * ```ts
 * const refs = parseReferenceDocument({ version: 1, refs: { ".zgroup": '{"zarr_format":2}', "a/0": ["s3://b/f.nc", 8, 100] } });
 * refs.get("a/0"); // { kind: "range", url: "s3://b/f.nc", offset: 8, length: 100 }
 * ```
 */
export function parseReferenceDocument(doc: JsonValue, options: ReferenceDocumentOptions = {}): Map<string, Reference> {
  const where = options.where === undefined ? "" : JSON.stringify(options.where);
  if (!isJsonObject(doc)) invalid(where, `expected a JSON object, got ${describeJson(doc)}`);
  const max = options.maxReferences ?? DEFAULT_MAX_REFERENCES;
  const intern = interner();
  const out = new Map<string, Reference>();
  const add = (key: string, ref: Reference) => {
    if (!out.has(key) && out.size >= max) invalid(where, `it makes more than ${max} references (raise maxReferences to read it)`);
    out.set(key, ref);
  };
  const version = doc.version;
  if (version === undefined) {
    for (const [key, value] of Object.entries(doc)) add(key, referenceOf(value, key, where, intern, options.target));
    return out;
  }
  if (version !== 1) invalid(where, `unknown reference spec version ${JSON.stringify(version)} (versions 0 and 1 are read)`);
  const templates = templatesOf(doc.templates, options.templates, where);
  const render = (text: string, vars: Readonly<Record<string, TemplateValue>>, key: string) => {
    try {
      return renderTemplate(text, vars);
    } catch (error) {
      return invalid(where, (error as Error).message, key);
    }
  };
  const refs = doc.refs ?? {};
  if (!isJsonObject(refs)) invalid(where, `"refs" must be an object, got ${describeJson(refs)}`);
  for (const [key, value] of Object.entries(refs)) {
    add(key, referenceOf(value, key, where, (url) => intern(render(url, templates, key)), options.target));
  }
  const gens = doc.gen ?? [];
  if (!Array.isArray(gens)) invalid(where, `"gen" must be an array, got ${describeJson(gens)}`);
  gens.forEach((gen, g) => {
    for (const [key, url, offset, length] of generate(gen, g, templates, where)) {
      const renderedKey = render(key.text, key.vars, `gen[${g}]`);
      const ref: Reference =
        offset === undefined
          ? { kind: "whole", url: intern(render(url.text, url.vars, renderedKey)) }
          : {
              kind: "range",
              url: intern(render(url.text, url.vars, renderedKey)),
              offset: byteCount(render(offset.text, offset.vars, renderedKey), "offset", where, renderedKey),
              length: byteCount(render((length as Rendering).text, (length as Rendering).vars, renderedKey), "length", where, renderedKey),
            };
      add(renderedKey, ref);
    }
  });
  return out;
}

/** The document's templates, with `overrides` replacing them. */
function templatesOf(value: JsonValue | undefined, overrides: Readonly<Record<string, string>> | undefined, where: string): Record<string, TemplateValue> {
  const templates: Record<string, TemplateValue> = {};
  if (value !== undefined) {
    if (!isJsonObject(value)) invalid(where, `"templates" must be an object, got ${describeJson(value)}`);
    for (const [name, text] of Object.entries(value)) {
      if (typeof text !== "string") invalid(where, `template ${JSON.stringify(name)} must be text, got ${describeJson(text)}`);
      templates[name] = text;
    }
  }
  return Object.assign(templates, overrides);
}

interface Rendering {
  text: string;
  vars: Readonly<Record<string, TemplateValue>>;
}

/** The points of one `gen` entry: its key, url, offset and length texts with the values to render them with. */
function* generate(
  gen: JsonValue,
  g: number,
  templates: Readonly<Record<string, TemplateValue>>,
  where: string,
): Generator<[Rendering, Rendering, Rendering | undefined, Rendering | undefined]> {
  const at = `gen[${g}]`;
  if (!isJsonObject(gen)) invalid(where, `${at} must be an object, got ${describeJson(gen)}`);
  const { key, url, offset, length, dimensions } = gen;
  if (typeof key !== "string" || typeof url !== "string") invalid(where, `${at} needs text "key" and "url"`);
  if ((offset === undefined) !== (length === undefined)) invalid(where, `${at} needs both "offset" and "length", or neither`);
  const text = (v: JsonValue | undefined) => (v === undefined ? undefined : typeof v === "string" ? v : JSON.stringify(v));
  if (!isJsonObject(dimensions)) invalid(where, `${at}.dimensions must be an object, got ${describeJson(dimensions ?? null)}`);
  const names = Object.keys(dimensions);
  const axes = names.map((name) => axisValues(dimensions[name], `${at}.dimensions.${name}`, where));
  if (axes.some((a) => a.length === 0)) return;
  const index = names.map(() => 0);
  for (;;) {
    const vars: Record<string, TemplateValue> = { ...templates };
    names.forEach((name, d) => {
      vars[name] = axes[d][index[d]];
    });
    const r = (t: string | undefined) => (t === undefined ? undefined : { text: t, vars });
    yield [{ text: key, vars }, { text: url, vars }, r(text(offset)), r(text(length))];
    // The next point: the last dimension fastest, as itertools.product.
    let d = names.length - 1;
    while (d >= 0 && ++index[d] === axes[d].length) index[d--] = 0;
    if (d < 0) return;
  }
}

/** A dimension's values: a list, or `{start, stop, step}` as Python's range. */
function axisValues(value: JsonValue, at: string, where: string): TemplateValue[] {
  if (Array.isArray(value)) {
    return value.map((v) => (typeof v === "number" || typeof v === "string" ? v : invalid(where, `${at} holds ${describeJson(v)}`)));
  }
  if (!isJsonObject(value)) invalid(where, `${at} must be a list or {start, stop, step}, got ${describeJson(value)}`);
  const int = (v: JsonValue | undefined, fallback: number | undefined, name: string) => {
    const n = v ?? fallback;
    if (typeof n !== "number" || !Number.isSafeInteger(n)) invalid(where, `${at}.${name} must be an integer`);
    return n;
  };
  const start = int(value.start, 0, "start");
  const stop = int(value.stop, undefined, "stop");
  const step = int(value.step, 1, "step");
  if (step === 0) invalid(where, `${at}.step must not be 0`);
  const count = Math.max(0, Math.ceil((stop - start) / step));
  if (count > DEFAULT_MAX_REFERENCES) invalid(where, `${at} has ${count} values, more than ${DEFAULT_MAX_REFERENCES}`);
  return Array.from({ length: count }, (_, i) => start + i * step);
}
