/**
 * Where Blob Storage's HTTP differs from what `HttpStore` expects, mended in its `fetch`.
 *
 * Suffix ranges: Blob Storage has none: `Range: bytes=-N` is not in its grammar (Azurite even
 * answers it with a broken `Content-Length: NaN`). This `fetch` wrapper turns each such
 * request into a HEAD for the blob's size and a GET of `bytes=(size-N)-`; when the blob
 * changed size in between (the answer's `Content-Range` total differs), it asks again.
 */
import type { FetchLike } from "@zarr/store-http";

const SUFFIX = /^bytes=-(\d+)$/;
const ATTEMPTS = 3;

function totalOf(contentRange: string | null): number | undefined {
  const m = /\/(\d+)$/.exec(contentRange ?? "");
  return m === null ? undefined : Number(m[1]);
}

/**
 * Conditional creation: Put Blob with `If-None-Match: *` on an existing blob is answered
 * `409 BlobAlreadyExists`, not `412`; it is passed on as the 412 it means, so that
 * `setIfVersion(key, value, null)` rejects with `STORE_CHANGED`.
 */
function conflictAsPreconditionFailed(fetch: FetchLike): FetchLike {
  return async (url, init) => {
    const response = await fetch(url, init);
    const ifNoneMatch = new Headers(init.headers).get("if-none-match");
    if (init.method !== "PUT" || ifNoneMatch !== "*" || response.status !== 409 || response.headers.get("x-ms-error-code") !== "BlobAlreadyExists") {
      return response;
    }
    await response.body?.cancel();
    return new Response(null, { status: 412, statusText: "Precondition Failed (BlobAlreadyExists)" });
  };
}

/** `fetch` with both mends (see the module comment). */
export function blobFetch(fetch: FetchLike): FetchLike {
  return withoutSuffixRanges(conflictAsPreconditionFailed(fetch));
}

/** Wraps `fetch` so that suffix-range GETs become HEAD + offset-range GET (see the module comment). */
function withoutSuffixRanges(fetch: FetchLike): FetchLike {
  return async (url, init) => {
    const headers = new Headers(init.headers);
    const suffix = SUFFIX.exec(headers.get("range") ?? "");
    if (init.method !== "GET" || suffix === null) return fetch(url, init);
    const length = Number(suffix[1]);
    headers.delete("range");
    let answer: Response | undefined;
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      const head = await fetch(url, { ...init, method: "HEAD", headers });
      const size = Number(head.headers.get("content-length"));
      // A failed HEAD (missing blob, refused token...) has no body to keep: its status decides.
      if (!head.ok || !Number.isSafeInteger(size)) return head.ok ? fetch(url, { ...init, headers }) : head;
      if (size === 0) return fetch(url, { ...init, headers });
      const ranged = new Headers(headers);
      ranged.set("range", `bytes=${Math.max(0, size - length)}-`);
      answer = await fetch(url, { ...init, headers: ranged });
      if (answer.status !== 206 || totalOf(answer.headers.get("content-range")) === size) return answer;
      await answer.body?.cancel();
    }
    return answer as Response;
  };
}
