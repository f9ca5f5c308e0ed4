/** Versions of HTTP values: strong ETags, which `If-Match` can compare. */

/**
 * The response's ETag when it is a strong one (`"abc"`), the value's version for
 * `getVersioned`; `undefined` for none, a weak one (`W/"abc"`, which `If-Match` never
 * matches) or one hidden by CORS.
 */
export function strongEtag(response: Response): string | undefined {
  const etag = response.headers.get("etag")?.trim();
  if (etag === undefined || etag === "" || etag.startsWith("W/")) return undefined;
  return etag;
}
