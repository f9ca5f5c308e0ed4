/**
 * A `fetch` for Node.js, for `HttpStore`'s `fetch` option: HTTP/1.1 over `node:net` and
 * `node:tls` sockets that each read into one reusable buffer, and optionally HTTP/2.
 *
 * Node's global `fetch` (undici) costs a lot per byte, and `node:http` allocates a buffer
 * per socket read: reading the benchmark array (256 chunks of 1 MiB over 127.0.0.1) takes
 * undici ~0.6 s and `node:http` ~0.35 s of main-thread time. Here a body goes from the
 * socket's read buffer straight into its destination (the `BODY_INTO` path that
 * `HttpStore` uses), one copy, no allocation per read. Everyone else gets the same
 * `Response` as from `fetch`, its body a stream of copies.
 *
 * What it does like `fetch`: keep-alive connections (a stale one is replaced once,
 * transparently), redirects (up to 20; 303, and 301/302 after a POST, become GET;
 * when a redirect leaves the origin, only headers that carry no secret go on — `Cookie`,
 * `Authorization`, `Proxy-Authorization` and custom key headers are dropped), `gzip`, `deflate` and
 * `br` bodies decoded (the `Content-Encoding` header stays, as with fetch),
 * `TypeError("fetch failed")` with the network error as `cause`, and the signal's reason
 * when the signal aborts (also in the middle of a body).
 * Proxies (`HTTP_PROXY`/`HTTPS_PROXY`/`NO_PROXY` with `proxy: "env"`) are opt-in.
 * HTTP/2 (`http2: true`) is opt-in too: negotiated per `https:` origin with ALPN.
 * What it does not: cookies, caches, `credentials`/`mode`/`cache`
 * request settings (ignored), request bodies other than `Uint8Array`/`ArrayBuffer`/string.
 * Read or cancel every body you receive: an unread body holds its connection.
 */
import type { Transform } from "node:stream";
import type { ConnectionOptions } from "node:tls";
import { BODY_INTO, type BodySink } from "./body-into.js";
import { BodyChannel } from "./node/body-channel.js";
import { type Connection, ConnectionPool } from "./node/connection-pool.js";
import { decodableCoding, decodingChannel } from "./node/decoding-channel.js";
import { exchangeHttp2 } from "./node/http2-exchange.js";
import { type Http2Session, Http2Sessions } from "./node/http2-sessions.js";
import { ProxyChooser, type ProxySettings, proxyFromEnv } from "./node/proxy.js";
import { redirectHeaders } from "./node/redirect-headers.js";
import { HttpParseError, type ResponseHead, ResponseParser } from "./node/response-parser.js";

/** Options of {@link createNodeFetch}. */
export interface NodeFetchOptions {
  /** Connections per host (default 64). */
  maxSockets?: number;
  /** Redirects followed before failing (default 20, as fetch). */
  maxRedirects?: number;
  /** TLS settings for `https:` (`ca`, `rejectUnauthorized`, client certificates...), as `tls.connect` takes them. */
  tls?: ConnectionOptions;
  /**
   * Proxies: `"env"` reads `HTTPS_PROXY`, `HTTP_PROXY` and `NO_PROXY` (upper or lower case)
   * when the function is made; or explicit {@link ProxySettings}. Default: no proxy.
   * `http:` URLs go to an HTTP proxy as absolute-form requests, `https:` ones through a
   * `CONNECT` tunnel (so the proxy sees only the host).
   */
  proxy?: ProxySettings | "env";
  /**
   * HTTP/2 for `https:` origins that offer it (default false): the first request to an
   * origin negotiates with ALPN; an origin that picks `h2` gets one multiplexed session for
   * all its requests, one that picks HTTP/1.1 the keep-alive pool as before. Origins
   * reached through a proxy, and `http:` URLs, always use HTTP/1.1.
   */
  http2?: boolean;
}

/** The function {@link createNodeFetch} makes: `fetch`'s signature (a `string` or `URL`, settings optional). */
export type NodeFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

export { type ProxySettings, proxyFromEnv };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Statuses whose responses have no body (the Response constructor refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * Makes a `fetch`-compatible function on Node sockets with its own keep-alive connection
 * pool (idle connections do not keep the process alive).
 *
 * @example
 * ```ts
 * import { HttpStore } from "@zarr/store-http";
 * import { createNodeFetch } from "@zarr/store-http/node";
 * const store = new HttpStore("https://example.com/data.zarr", { fetch: createNodeFetch({ maxSockets: 128 }) });
 * ```
 */
export function createNodeFetch(options: NodeFetchOptions = {}): NodeFetch {
  const maxSockets = options.maxSockets ?? 64;
  const maxRedirects = options.maxRedirects ?? 20;
  if (!Number.isSafeInteger(maxSockets) || maxSockets < 1) throw new TypeError(`maxSockets must be a positive integer, got ${maxSockets}`);
  if (!Number.isSafeInteger(maxRedirects) || maxRedirects < 0) throw new TypeError(`maxRedirects must be a non-negative integer, got ${maxRedirects}`);
  const proxy = options.proxy === "env" ? proxyFromEnv() : options.proxy;
  const proxies = proxy === undefined || (proxy.http === undefined && proxy.https === undefined) ? undefined : new ProxyChooser(proxy);
  const transport: Transport = {
    pool: new ConnectionPool(maxSockets, options.tls, proxies),
    http2: options.http2 === true ? new Http2Sessions(options.tls) : undefined,
    proxies,
  };
  return (url, init = {}) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch (error) {
      return Promise.reject(new TypeError(`Invalid URL ${JSON.stringify(url)}`, { cause: error }));
    }
    return send(transport, target, init, plainHeaders(init.headers), maxRedirects);
  };
}

/** `fetch` on Node sockets, with 64 keep-alive connections per host. See {@link createNodeFetch}. */
export const nodeFetch: NodeFetch = (url, init) => {
  defaultFetch ??= createNodeFetch();
  return defaultFetch(url, init);
};
let defaultFetch: NodeFetch | undefined;

function plainHeaders(init: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (init === undefined) return out;
  new Headers(init).forEach((value, name) => {
    out[name] = value;
  });
  return out;
}

function requestBody(body: RequestInit["body"]): Uint8Array | string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string" || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  throw new TypeError("nodeFetch sends only Uint8Array, ArrayBuffer or string bodies");
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}


/** Request header fields the transport sets itself (fetch forbids callers to set them). */
const TRANSPORT_HEADERS = new Set(["host", "content-length", "connection", "transfer-encoding", "keep-alive", "upgrade", "te", "trailer"]);
/** A body left unread is read to its end (keeping the connection) only when at most this much remains. */
const DISCARD_LIMIT = 64 * 1024;

/** How requests go out: the HTTP/1.1 pool, HTTP/2 sessions when enabled, and the proxies. */
interface Transport {
  pool: ConnectionPool;
  http2: Http2Sessions | undefined;
  proxies: ProxyChooser | undefined;
}

/** Resolves `promise`, or rejects with the signal's reason as soon as `signal` aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** One request and its response head, over HTTP/2 where the origin speaks it, else HTTP/1.1. */
async function request(
  t: Transport,
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: Uint8Array | string | undefined,
  signal: AbortSignal | undefined,
): Promise<Response> {
  if (t.http2 !== undefined && url.protocol === "https:" && t.proxies?.for(url) === undefined) {
    let session: Http2Session | null;
    try {
      session = await untilAborted(t.http2.sessionFor(url), signal);
    } catch (error) {
      throw signal?.aborted ? error : new TypeError("fetch failed", { cause: error });
    }
    if (session !== null) {
      return exchangeHttp2(t.http2, session, url, method, headers, typeof body === "string" ? Buffer.from(body, "utf8") : body, signal);
    }
  }
  return exchange(t.pool, url, method, headers, body, signal, true);
}

/** One request, following redirects. */
async function send(t: Transport, url: URL, init: RequestInit, headers: Record<string, string>, redirectsLeft: number): Promise<Response> {
  const signal = init.signal ?? undefined;
  if (signal?.aborted) throw abortReason(signal);
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new TypeError(`fetch failed: unsupported protocol ${url.protocol}`);
  const method = (init.method ?? "GET").toUpperCase();
  const body = requestBody(init.body);
  const response = await request(t, url, method, headers, body, signal);
  const location = response.headers.get("location");
  if (!REDIRECTS.has(response.status) || location === null || init.redirect === "manual") return response;
  response.body?.cancel().catch(() => {}); // the redirect's own body is not wanted
  if (init.redirect === "error" || redirectsLeft === 0) {
    throw new TypeError(`fetch failed: ${init.redirect === "error" ? "redirect refused" : "too many redirects"} at ${url.href}`);
  }
  let next: URL;
  try {
    next = new URL(location, url);
  } catch (error) {
    throw new TypeError(`fetch failed: bad redirect location ${JSON.stringify(location)}`, { cause: error });
  }
  const status = response.status;
  const toGet = status === 303 ? method !== "HEAD" : (status === 301 || status === 302) && method === "POST";
  const nextHeaders = redirectHeaders(headers, url, next);
  if (toGet) delete nextHeaders["content-type"];
  const nextInit: RequestInit = toGet ? { ...init, method: "GET", body: undefined } : init;
  return send(t, next, nextInit, nextHeaders, redirectsLeft - 1);
}

function requestHead(connection: Connection, url: URL, method: string, headers: Record<string, string>, body: Uint8Array | undefined): string {
  // Through an HTTP proxy the request target is the absolute URL (without credentials or fragment).
  const proxy = connection.proxy;
  const target = proxy === undefined ? `${url.pathname}${url.search}` : `${url.protocol}//${url.host}${url.pathname}${url.search}`;
  let head = `${method} ${target} HTTP/1.1\r\nhost: ${url.host}\r\n`;
  if (proxy?.authorization !== undefined) head += `proxy-authorization: ${proxy.authorization}\r\n`;
  for (const name in headers) {
    if (!TRANSPORT_HEADERS.has(name)) head += `${name}: ${headers[name]}\r\n`;
  }
  if (body !== undefined) head += `content-length: ${body.length}\r\n`;
  else if (method === "PUT" || method === "POST" || method === "PATCH") head += "content-length: 0\r\n";
  return `${head}\r\n`;
}

/**
 * Sends one request on a pooled connection and resolves its response once the head has
 * arrived. A reused connection that closes before answering was a stale keep-alive: the
 * request goes once more, on a new connection (`retryStale`).
 */
async function exchange(
  pool: ConnectionPool,
  url: URL,
  method: string,
  headers: Record<string, string>,
  requestBody: Uint8Array | string | undefined,
  signal: AbortSignal | undefined,
  retryStale: boolean,
): Promise<Response> {
  let connection: Connection;
  try {
    connection = await pool.acquire(url, signal);
  } catch (error) {
    // The abort reason as it is; a failed connection (a proxy refusing CONNECT...) as fetch reports it.
    throw signal?.aborted ? error : new TypeError("fetch failed", { cause: error });
  }
  if (signal?.aborted) {
    pool.release(connection, true);
    throw abortReason(signal);
  }
  const body = typeof requestBody === "string" ? Buffer.from(requestBody, "utf8") : requestBody;
  const socket = connection.socket;
  return new Promise<Response>((resolve, reject) => {
    let released = false;
    let received = false; // any byte of the response
    let channel: BodyChannel | undefined;
    let decoder: Transform | undefined;
    /** Body bytes read with the head, held in the socket's buffer until the body has a reader. */
    let held: { buffer: Uint8Array; from: number; to: number } | undefined;
    let paused = false;
    let discarding = -1; // bytes still accepted while discarding, or -1
    let nullBody = false; // the response may not have a body (fetch gives it none)
    const reused = connection.reused;

    const finish = (reusable: boolean): void => {
      if (released) return;
      released = true;
      signal?.removeEventListener("abort", onAbort);
      // A connection goes back reading (an idle one must notice when the server closes it).
      if (paused) socket.resume();
      paused = false;
      pool.release(connection, reusable);
    };
    const fail = (error: unknown): void => {
      finish(false);
      if (channel === undefined) {
        reject(error);
        return;
      }
      decoder?.destroy();
      channel.fail(error);
    };
    const onAbort = (): void => fail(abortReason(signal as AbortSignal));
    signal?.addEventListener("abort", onAbort, { once: true });

    const parser = new ResponseParser(method, {
      head: (head) => {
        channel = bodyChannel(head);
        resolve(toResponse(head, method, channel));
      },
      body: (bytes) => {
        if (discarding >= 0) {
          discarding -= bytes.length;
          if (discarding < 0) fail(new TypeError("fetch failed: body discarded"));
        } else if (decoder !== undefined) {
          if (!decoder.write(Buffer.from(bytes))) pause();
        } else channel?.deliver(bytes, false);
      },
      complete: () => {
        if (decoder !== undefined) decoder.end();
        else channel?.finish();
      },
    });

    /** Parses `buffer[from, to)`; hands the connection back once the response is complete. */
    const parse = (buffer: Uint8Array, from: number, to: number): void => {
      let used: number;
      try {
        used = parser.feed(buffer, from, to);
        if (!parser.done && parser.headParsed && used < to && !released) {
          if (nullBody) {
            // A body where none may be (205 with content): read past it.
            discarding = DISCARD_LIMIT;
            parse(buffer, used, to);
            return;
          }
          // The head is parsed and the body has no reader yet: keep the rest where it is.
          held = { buffer, from: used, to };
          pause();
          return;
        }
      } catch (error) {
        if (released) return;
        fail(error instanceof HttpParseError ? new TypeError(`fetch failed: ${error.message}`, { cause: error }) : error);
        return;
      }
      if (parser.done) finish(parser.keepAlive && used === to);
    };
    const pause = (): void => {
      if (!paused) socket.pause();
      paused = true;
    };
    const resume = (): void => {
      if (held !== undefined) {
        const { buffer, from, to } = held;
        held = undefined;
        parse(buffer, from, to);
        if (held !== undefined || released) return;
      }
      if (paused) socket.resume();
      paused = false;
    };

    function bodyChannel(head: ResponseHead): BodyChannel {
      const coding = head.rawHeaders.find(([name]) => name.toLowerCase() === "content-encoding")?.[1].trim().toLowerCase();
      const source = {
        pause,
        resume,
        abandon: () => fail(new TypeError("fetch failed: the body was abandoned")),
        discard: () => {
          if (decoder !== undefined) return fail(new TypeError("fetch failed: body discarded"));
          discarding = DISCARD_LIMIT;
          resume();
        },
      };
      nullBody = method === "HEAD" || NULL_BODY.has(head.status);
      if (nullBody || !decodableCoding(coding)) return new BodyChannel(source);
      const decoding = decodingChannel(coding, source, () => finish(false));
      decoder = decoding.decoder;
      return decoding.channel;
    }

    connection.handler = {
      data: (buffer, length) => {
        received = true;
        parse(buffer, 0, length);
      },
      closed: (error) => {
        if (released) return;
        if (parser.end()) {
          finish(false); // a body framed by the connection's close
          return;
        }
        if (!received && reused && retryStale) {
          finish(false);
          exchange(pool, url, method, headers, requestBody, signal, false).then(resolve, reject);
          return;
        }
        const cause = error ?? new Error("the connection closed before the response was complete");
        fail(channel === undefined ? new TypeError("fetch failed", { cause }) : new TypeError("fetch failed: the body was cut off", { cause }));
      },
    };
    socket.write(requestHead(connection, url, method, headers, body), "latin1");
    if (body !== undefined && body.length > 0) socket.write(body);
  });
}

/** The Response fetch would give for `head`, its body read through `channel`. */
function toResponse(head: ResponseHead, method: string, channel: BodyChannel): Response {
  const headers = new Headers();
  for (const [name, value] of head.rawHeaders) headers.append(name, value);
  const init = { status: head.status, statusText: head.statusText, headers };
  if (method === "HEAD" || NULL_BODY.has(head.status)) return new Response(null, init);
  const response = new Response(channel.stream(), init);
  Object.defineProperty(response, BODY_INTO, { value: (sink: BodySink) => channel.into(sink) });
  return response;
}
