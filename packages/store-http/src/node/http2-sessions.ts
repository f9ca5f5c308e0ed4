/**
 * HTTP/2 for `https:` origins that offer it: one TLS connection per origin negotiates
 * with ALPN (`h2`, then `http/1.1`). When the server picks `h2`, that connection becomes
 * the origin's one multiplexed `node:http2` session, and every request to the origin is a
 * stream on it. When it picks HTTP/1.1, the connection is closed and the origin is
 * remembered as HTTP/1.1, so the caller's HTTP/1.1 pool serves it from then on (one
 * extra handshake per such origin, once).
 *
 * Sessions do not keep the process alive while idle, and close after `IDLE_MS` unused.
 */
import http2 from "node:http2";
import net from "node:net";
import tls from "node:tls";

/** An idle session closes after this long. */
const IDLE_MS = 30_000;

/** An origin's HTTP/2 session and how many streams it carries. */
interface Session {
  readonly session: http2.ClientHttp2Session;
  streams: number;
}

/** The HTTP/2 sessions of one fetch function, by origin. */
export class Http2Sessions {
  readonly #tls: tls.ConnectionOptions | undefined;
  /** Origin → its session, or `null` when the origin answered ALPN with HTTP/1.1. */
  readonly #origins = new Map<string, Promise<Session | null>>();

  constructor(tlsOptions: tls.ConnectionOptions | undefined) {
    this.#tls = tlsOptions;
  }

  /**
   * The session for `url`'s origin, negotiating it on first use; `null` when the origin
   * speaks HTTP/1.1 only. A failed negotiation rejects (and is tried afresh next time).
   */
  async sessionFor(url: URL): Promise<Session | null> {
    const origin = url.origin;
    let entry = this.#origins.get(origin);
    if (entry === undefined) {
      entry = this.#negotiate(url);
      this.#origins.set(origin, entry);
      entry.catch(() => {
        if (this.#origins.get(origin) === entry) this.#origins.delete(origin);
      });
    }
    const session = await entry;
    if (session !== null && (session.session.closed || session.session.destroyed)) {
      if (this.#origins.get(origin) === entry) this.#origins.delete(origin);
      return this.sessionFor(url);
    }
    return session;
  }

  /** Marks a stream started on `s` (the session keeps the process alive while it has any). */
  open(s: Session): void {
    if (s.streams++ === 0) s.session.ref();
  }

  /** Marks a stream of `s` finished. */
  close(s: Session): void {
    if (--s.streams === 0 && !s.session.destroyed) s.session.unref();
  }

  #negotiate(url: URL): Promise<Session | null> {
    const origin = url.origin;
    const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
    return new Promise<Session | null>((resolve, reject) => {
      const socket = tls.connect({
        ...this.#tls,
        host,
        port: url.port === "" ? 443 : Number(url.port),
        // SNI takes host names only, never IP addresses.
        ...(net.isIP(host) === 0 ? { servername: host } : {}),
        ALPNProtocols: ["h2", "http/1.1"],
      });
      socket.once("error", reject);
      socket.once("secureConnect", () => {
        socket.removeListener("error", reject);
        if (socket.alpnProtocol !== "h2") {
          socket.destroy();
          resolve(null);
          return;
        }
        const session = http2.connect(origin, { createConnection: () => socket });
        const entry: Session = { session, streams: 0 };
        // Errors reach the streams that were open; the session itself is just dropped.
        session.on("error", () => {});
        session.once("close", () => {
          const current = this.#origins.get(origin);
          current?.then((s) => {
            if (s === entry && this.#origins.get(origin) === current) this.#origins.delete(origin);
          });
        });
        session.setTimeout(IDLE_MS, () => {
          if (entry.streams === 0) session.close();
        });
        session.unref();
        resolve(entry);
      });
    });
  }
}

export type { Session as Http2Session };
