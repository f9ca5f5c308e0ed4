/**
 * Which request headers follow a redirect to another origin. Credentials hide under any
 * name (`Cookie`, `Authorization`, `Proxy-Authorization`, but also `X-Api-Key` or
 * whatever header a service reads its key from), so instead of a list of what to drop,
 * only headers known to carry no secret go on: content negotiation, ranges, conditionals
 * and the user agent. Fetch drops only `Authorization`; undici also drops `Cookie` and
 * `Proxy-Authorization`; this is stricter than both.
 */
const CROSS_ORIGIN_SAFE = new Set([
  "accept",
  "accept-encoding",
  "accept-language",
  "cache-control",
  "content-language",
  "content-type",
  "if-match",
  "if-modified-since",
  "if-none-match",
  "if-range",
  "if-unmodified-since",
  "pragma",
  "range",
  "user-agent",
]);

/** The headers (lower-case names) a redirect from `from` to `to` carries on. */
export function redirectHeaders(headers: Record<string, string>, from: URL, to: URL): Record<string, string> {
  if (from.origin === to.origin) return { ...headers };
  const kept: Record<string, string> = {};
  for (const name in headers) if (CROSS_ORIGIN_SAFE.has(name)) kept[name] = headers[name];
  return kept;
}
