// A fetch-like function on undici's Agent (a Pool per origin) and `request`, with the
// direct body path HttpStore uses (BODY_INTO: each Buffer undici reads handed to the
// store's sink, no web stream in between). Bench-only: it is what a Node transport built on
// undici would cost on HttpStore's read path, redirects and the rest left out.
import { BODY_INTO } from "@zarr/store-http";
import { Agent, request } from "undici";

const NULL_BODY = new Set([101, 103, 204, 205, 304]);

export function createUndiciFetch({ connections = 64 } = {}) {
  const dispatcher = new Agent({ connections, keepAliveTimeout: 60_000 });
  const fetchLike = async (url, init = {}) => {
    const { statusCode, headers, body } = await request(url, {
      method: init.method ?? "GET",
      headers: init.headers === undefined ? undefined : Object.fromEntries(new Headers(init.headers)),
      body: init.body ?? undefined,
      signal: init.signal ?? undefined,
      dispatcher,
    });
    const h = new Headers();
    for (const [name, value] of Object.entries(headers)) {
      if (Array.isArray(value)) for (const v of value) h.append(name, v);
      else if (value !== undefined) h.append(name, value);
    }
    const responseInit = { status: statusCode, headers: h };
    if ((init.method ?? "GET") === "HEAD" || NULL_BODY.has(statusCode)) {
      body.resume();
      return new Response(null, responseInit);
    }
    let direct = false;
    // A web stream made only when someone reads `response.body` (highWaterMark 0: no pull before).
    const lazy = new ReadableStream(
      {
        async pull(controller) {
          lazy.iterator ??= body[Symbol.asyncIterator]();
          const { done, value } = await lazy.iterator.next();
          if (done) controller.close();
          else controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
        },
        cancel(reason) {
          body.destroy(reason instanceof Error ? reason : undefined);
        },
      },
      { highWaterMark: 0 },
    );
    const response = new Response(lazy, responseInit);
    Object.defineProperty(response, BODY_INTO, {
      value: async (sink) => {
        if (direct) throw new TypeError("body already read");
        direct = true;
        for await (const chunk of body) sink(chunk);
      },
    });
    return response;
  };
  fetchLike.close = () => dispatcher.close();
  return fetchLike;
}
