/**
 * One request as a stream on an HTTP/2 session, answered with the `Response` `fetch`
 * would give: status, headers (without HTTP/2's pseudo-headers), and the body through a
 * `BodyChannel` (so `HttpStore`'s read-into path works as over HTTP/1.1), decoded when
 * it has a content coding.
 */
import http2 from "node:http2";
import type { Transform } from "node:stream";
import { BODY_INTO, type BodySink } from "../body-into.js";
import { BodyChannel } from "./body-channel.js";
import { decodableCoding, decodingChannel } from "./decoding-channel.js";
import type { Http2Session, Http2Sessions } from "./http2-sessions.js";

/** Request header fields HTTP/2 forbids (connection-specific ones) or sets itself. */
const HTTP2_FORBIDDEN = new Set(["host", "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te", "content-length"]);
/** Statuses whose responses have no body (the Response constructor refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

/**
 * Sends `method url` with `headers` and `body` as a new stream of `s`, resolving once the
 * response head has arrived. Network and protocol failures reject with
 * `TypeError("fetch failed")` (the cause attached), as `fetch` does; an abort rejects with
 * the signal's reason, also while the body is being read.
 */
export function exchangeHttp2(
  sessions: Http2Sessions,
  s: Http2Session,
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: Uint8Array | undefined,
  signal: AbortSignal | undefined,
): Promise<Response> {
  const requestHeaders: http2.OutgoingHttpHeaders = {
    ":method": method,
    ":scheme": "https",
    ":authority": url.host,
    ":path": `${url.pathname}${url.search}`,
  };
  for (const name in headers) if (!HTTP2_FORBIDDEN.has(name)) requestHeaders[name] = headers[name];
  if (body !== undefined) requestHeaders["content-length"] = String(body.length);

  return new Promise<Response>((resolve, reject) => {
    let stream: http2.ClientHttp2Stream;
    try {
      stream = s.session.request(requestHeaders, { endStream: body === undefined || body.length === 0 });
    } catch (error) {
      reject(new TypeError("fetch failed", { cause: error }));
      return;
    }
    sessions.open(s);
    let channel: BodyChannel | undefined;
    let decoder: Transform | undefined;
    let settled = false;
    const done = (): void => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener("abort", onAbort);
      sessions.close(s);
    };
    const fail = (error: unknown): void => {
      const wasOpen = !settled;
      done();
      if (!stream.closed) stream.close(http2.constants.NGHTTP2_CANCEL);
      if (channel === undefined) reject(error);
      else if (wasOpen) {
        decoder?.destroy();
        channel.fail(error);
      }
    };
    const onAbort = (): void => fail(abortReason(signal as AbortSignal));
    if (signal?.aborted) {
      onAbort();
      return;
    }
    signal?.addEventListener("abort", onAbort, { once: true });

    stream.once("response", (head) => {
      const status = Number(head[":status"]);
      const responseHeaders = new Headers();
      for (const [name, value] of Object.entries(head)) {
        if (name.startsWith(":") || value === undefined) continue;
        for (const v of Array.isArray(value) ? value : [value]) responseHeaders.append(name, String(v));
      }
      const init = { status, statusText: "", headers: responseHeaders };
      if (method === "HEAD" || NULL_BODY.has(status)) {
        stream.resume(); // nothing should come; read it away so the stream ends
        stream.once("end", done);
        resolve(new Response(null, init));
        return;
      }
      const source = {
        pause: () => stream.pause(),
        resume: () => stream.resume(),
        abandon: () => fail(new TypeError("fetch failed: the body was abandoned")),
        // A stream can be cancelled without harming the session: no need to read the rest.
        discard: () => {
          done();
          if (!stream.closed) stream.close(http2.constants.NGHTTP2_CANCEL);
        },
      };
      const coding = responseHeaders.get("content-encoding")?.trim().toLowerCase();
      if (decodableCoding(coding)) {
        const decoding = decodingChannel(coding, source, () => fail(new TypeError("fetch failed: the body could not be decoded")));
        channel = decoding.channel;
        decoder = decoding.decoder;
      } else channel = new BodyChannel(source);
      const response = new Response(channel.stream(), init);
      const bodyChannel = channel;
      Object.defineProperty(response, BODY_INTO, { value: (sink: BodySink) => bodyChannel.into(sink) });
      resolve(response);
    });
    stream.on("data", (chunk: Buffer) => {
      const bytes = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      if (decoder !== undefined) {
        if (!decoder.write(chunk)) stream.pause();
      } else channel?.deliver(bytes, true);
    });
    stream.once("end", () => {
      done();
      if (decoder !== undefined) decoder.end();
      else channel?.finish();
    });
    stream.once("error", (error) => {
      if (settled && channel !== undefined) return;
      fail(channel === undefined ? new TypeError("fetch failed", { cause: error }) : new TypeError("fetch failed: the body was cut off", { cause: error }));
    });
    stream.once("close", () => {
      // Closed without an end (RST_STREAM, a session that went away): the body is incomplete.
      if (!settled) fail(channel === undefined ? new TypeError("fetch failed: the stream was reset") : new TypeError("fetch failed: the body was cut off"));
    });
    if (body !== undefined && body.length > 0) stream.end(body);
  });
}
