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
import { decodeBase64, describeJson, isJsonObject, type JsonValue, stringifyJson, ZarrError } from "@zarr/spec";
import { type ReferenceTable, ReferenceTableBuilder } from "./reference-table.js";

export type { Reference } from "./reference-table.js";
import { renderTemplate, type TemplateValue } from "./template.js";


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

/**
 * A reference document as the reader walks it: a parsed JSON value ({@link jsonDocumentView}),
 * or the document's bytes scanned in place (`bytesDocumentView`), which hands over plain
 * `[url, offset, length]` entries without making JSON values of them.
 */
export interface DocumentView {
  /** The document, when it is not a JSON object (to describe in the error). */
  nonObject(): { value: JsonValue } | undefined;
  /** The top-level member `name`, parsed; undefined when the document has none. */
  member(name: string): JsonValue | undefined;
  /** True when the top-level member `name` is a JSON object. */
  isObjectMember(name: string): boolean;
  /**
   * Visits each member of the top-level object (`name` undefined) or of its object member
   * `name`, in order: `onRange` may be called for `[url, offset, length]` entries whose
   * offset and length are plain non-negative integers below 2^53 and whose URL is text or
   * null, with the key as UTF-8 bytes `key[start..end)`; `onValue` gets the parsed value of
   * every other entry.
   */
  eachMember(
    name: string | undefined,
    onValue: (key: string, value: JsonValue) => void,
    onRange: (key: Uint8Array, start: number, end: number, url: string | null, offset: number, length: number) => void,
  ): void;
}

/** A parsed JSON document as a {@link DocumentView}. */
function jsonDocumentView(doc: JsonValue): DocumentView {
  const own = (name: string) => (isJsonObject(doc) && Object.hasOwn(doc, name) ? doc[name] : undefined);
  return {
    nonObject: () => (isJsonObject(doc) ? undefined : { value: doc }),
    member: own,
    isObjectMember: (name) => isJsonObject(own(name)),
    eachMember(name, onValue) {
      const object = name === undefined ? doc : own(name);
      if (isJsonObject(object)) for (const [key, value] of Object.entries(object)) onValue(key, value);
    },
  };
}

/** Fills the table of one document: every entry checked, each URL rendered and kept once, the count of references bounded. */
class TableBuilder {
  readonly table = new ReferenceTableBuilder();
  readonly #where: string;
  readonly #max: number;
  readonly #target: string | undefined;
  /** Target indices by URL as written (before templates): a set names a few files many times. */
  readonly #targets = new Map<string | null, number>();
  readonly #urlOf: (url: string, key: string) => string;

  constructor(where: string, options: ReferenceDocumentOptions, urlOf: (url: string, key: string) => string) {
    this.#where = where;
    this.#max = options.maxReferences ?? DEFAULT_MAX_REFERENCES;
    this.#target = options.target;
    this.#urlOf = urlOf;
  }

  #room(key: string): void {
    // A chunk key given twice counts twice here (chunk keys are not looked up while building).
    if (this.table.size >= this.#max && !this.table.hasNamed(key)) invalid(this.#where, `it makes more than ${this.#max} references (raise maxReferences to read it)`);
  }

  /** The target index of a URL as written (`null`: the default target). */
  #targetOf(raw: string | null, key: string): number {
    const known = this.#targets.get(raw);
    if (known !== undefined) return known;
    const url = raw === null ? this.#target : this.#urlOf(raw, key);
    if (url === undefined || url === "") invalid(this.#where, "the URL is null and no default target was given", key);
    const index = this.table.target(url);
    this.#targets.set(raw, index);
    return index;
  }

  /** Adds `[url, offset, length]` whose offset and length are known to be byte counts. */
  addRange(key: string, url: string | null, offset: number, length: number): void {
    const target = this.#targetOf(url, key);
    this.#room(key);
    this.table.setRange(key, target, offset, length);
  }

  /** {@link addRange} with the key as UTF-8 bytes `bytes[start..end)` (a string is made of it only for an error). */
  addRangeAt(bytes: Uint8Array, start: number, end: number, url: string | null, offset: number, length: number): void {
    const known = this.#targets.get(url);
    const target = known ?? this.#targetOf(url, keyText(bytes, start, end));
    if (this.table.size >= this.#max) this.#room(keyText(bytes, start, end));
    this.table.setRangeAt(bytes, start, end, target, offset, length);
  }

  /** Adds a rendered `gen` reference (a whole file without offset and length). */
  addGenerated(key: string, url: string, offset?: number, length?: number): void {
    this.#room(key);
    const target = this.table.target(url);
    if (offset === undefined || length === undefined) this.table.setWhole(key, target);
    else this.table.setRange(key, target, offset, length);
  }

  /** Adds the reference a document's value makes (version 0, and version 1 `refs`). */
  addValue(key: string, value: JsonValue): void {
    const where = this.#where;
    if (typeof value === "string") {
      let bytes: Uint8Array | undefined;
      if (!value.startsWith("base64:")) bytes = utf8.encode(value);
      else {
        bytes = decodeBase64(value.slice(7));
        if (bytes === undefined) invalid(where, "the inline value is not valid base64", key);
      }
      this.#room(key);
      this.table.setInline(key, bytes);
      return;
    }
    if (isJsonObject(value)) {
      this.#room(key);
      this.table.setInline(key, utf8.encode(stringifyJson(value, 0)));
      return;
    }
    if (!Array.isArray(value) || (value.length !== 1 && value.length !== 3)) {
      invalid(where, `expected text, [url] or [url, offset, length], got ${describeJson(value)}`, key);
    }
    const raw = value[0];
    if (raw !== null && typeof raw !== "string") invalid(where, `the URL must be text or null, got ${describeJson(raw)}`, key);
    const target = this.#targetOf(raw, key);
    if (value.length === 1) {
      this.#room(key);
      this.table.setWhole(key, target);
    } else this.addRange(key, raw, byteCount(value[1], "offset", where, key), byteCount(value[2], "length", where, key));
  }
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
export function parseReferenceDocument(doc: JsonValue, options: ReferenceDocumentOptions = {}): ReferenceTable {
  return readReferenceDocument(jsonDocumentView(doc), options);
}

/** The references of a document seen through `view`: the one reading of versions 0 and 1. */
export function readReferenceDocument(view: DocumentView, options: ReferenceDocumentOptions): ReferenceTable {
  const where = options.where === undefined ? "" : JSON.stringify(options.where);
  const notObject = view.nonObject();
  if (notObject !== undefined) invalid(where, `expected a JSON object, got ${describeJson(notObject.value)}`);
  const version = view.member("version");
  if (version === undefined) {
    const builder = new TableBuilder(where, options, (url) => url);
    view.eachMember(undefined, onValue(builder), onRange(builder));
    return builder.table.build();
  }
  if (version !== 1) {
    const shown = typeof version === "number" || typeof version === "bigint" ? String(version) : describeJson(version);
    invalid(where, `unknown reference spec version ${shown} (versions 0 and 1 are read)`);
  }
  const templates = templatesOf(view.member("templates"), options.templates, where);
  const render = (text: string, vars: Readonly<Record<string, TemplateValue>>, key: string) => {
    try {
      return renderTemplate(text, vars);
    } catch (error) {
      return invalid(where, (error as Error).message, key);
    }
  };
  const builder = new TableBuilder(where, options, (url, key) => render(url, templates, key));
  if (view.isObjectMember("refs")) {
    view.eachMember("refs", onValue(builder), onRange(builder));
  } else {
    const refs = view.member("refs") ?? {};
    if (!isJsonObject(refs)) invalid(where, `"refs" must be an object, got ${describeJson(refs)}`);
  }
  const gens = view.member("gen") ?? [];
  if (!Array.isArray(gens)) invalid(where, `"gen" must be an array, got ${describeJson(gens)}`);
  gens.forEach((gen, g) => {
    for (const [key, url, offset, length] of generate(gen, g, templates, where)) {
      const renderedKey = render(key.text, key.vars, `gen[${g}]`);
      const renderedUrl = render(url.text, url.vars, renderedKey);
      if (offset === undefined || length === undefined) builder.addGenerated(renderedKey, renderedUrl);
      else {
        const o = byteCount(render(offset.text, offset.vars, renderedKey), "offset", where, renderedKey);
        builder.addGenerated(renderedKey, renderedUrl, o, byteCount(render(length.text, length.vars, renderedKey), "length", where, renderedKey));
      }
    }
  });
  return builder.table.build();
}

const onValue = (builder: TableBuilder) => (key: string, value: JsonValue) => builder.addValue(key, value);
const onRange = (builder: TableBuilder) => (key: Uint8Array, start: number, end: number, url: string | null, offset: number, length: number) =>
  builder.addRangeAt(key, start, end, url, offset, length);

const utf8Decoder = new TextDecoder();

/** A key given as UTF-8 bytes, as text (to name it in an error). */
function keyText(bytes: Uint8Array, start: number, end: number): string {
  return utf8Decoder.decode(bytes.subarray(start, end));
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
