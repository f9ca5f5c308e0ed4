/**
 * Just enough XML for listing answers (GCS's ListBucketResult, Azure's EnumerationResults):
 * the text of simple elements, in document order. Listing documents are flat and known, so
 * a full parser would add weight without adding safety.
 */

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** Undoes XML escapes (`&amp;`, `&#47;`, `&#x2F;`) and CDATA sections in element text. */
export function xmlText(raw: string): string {
  const cdata = /^<!\[CDATA\[([\s\S]*)\]\]>$/.exec(raw);
  if (cdata !== null) return cdata[1];
  return raw.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, name: string) => {
    if (name.startsWith("#x")) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith("#")) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
    return ENTITIES[name] ?? whole;
  });
}

/** The inner XML of every `<tag>…</tag>` in `xml` (not nested in one another), in order. */
export function xmlElements(xml: string, tag: string): string[] {
  const out: string[] = [];
  const pattern = new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}>|<${tag}(?:\\s[^>]*)?/>`, "g");
  for (const m of xml.matchAll(pattern)) out.push(m[1] ?? "");
  return out;
}

/** The text of the first `<tag>` in `xml`, unescaped, or `undefined` when there is none. */
export function xmlFirstText(xml: string, tag: string): string | undefined {
  const [inner] = xmlElements(xml, tag);
  return inner === undefined ? undefined : xmlText(inner.trim() === "" ? "" : inner);
}
