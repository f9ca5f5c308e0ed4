/**
 * Keep-alive TCP/TLS connections per origin, at most `maxSockets` in use per origin, the
 * rest of the requests waiting in line. Each socket reads into its own reusable buffer
 * (`onread`), so receiving allocates nothing per read; idle sockets do not keep the
 * process alive and are closed after a while.
 */
import net from "node:net";
import tls from "node:tls";
import type { ProxyChooser, ProxyServer } from "./proxy.js";
import { openSocksTunnel } from "./socks.js";

/** Receives what happens on a connection while a request owns it. */
export interface ConnectionHandler {
  /** `buffer[0, length)` arrived; the buffer is reused by the next read. */
  data(buffer: Uint8Array, length: number): void;
  /** The connection closed (cleanly or not); `error` when it failed. */
  closed(error: Error | undefined): void;
}

/** One socket and who is using it. */
export interface Connection {
  readonly socket: net.Socket;
  /** The socket served an earlier request (so a failure before any answer may be a stale keep-alive). */
  reused: boolean;
  handler: ConnectionHandler | undefined;
  readonly origin: string;
  /** The HTTP proxy requests on this connection go through (absolute-form request targets); not set for a CONNECT tunnel. */
  readonly proxy: ProxyServer | undefined;
}

interface Waiter {
  resolve(connection: Connection): void;
  reject(reason: unknown): void;
  signal: AbortSignal | undefined;
  onAbort(): void;
}

interface OriginState {
  idle: Connection[];
  active: number;
  waiting: Waiter[];
}

/** Bytes each socket reads at a time (its reusable read buffer). */
const READ_BUFFER_BYTES = 128 * 1024;
/** Idle connections are closed after this long. */
const IDLE_TIMEOUT_MS = 30_000;

export class ConnectionPool {
  readonly #origins = new Map<string, OriginState>();
  readonly #maxSockets: number;
  readonly #tls: tls.ConnectionOptions;
  readonly #proxies: ProxyChooser | undefined;

  constructor(maxSockets: number, tlsOptions: tls.ConnectionOptions = {}, proxies?: ProxyChooser) {
    this.#maxSockets = maxSockets;
    this.#tls = tlsOptions;
    this.#proxies = proxies;
  }

  /** A connection to `url`'s origin: an idle one, a new one, or the next one released. */
  acquire(url: URL, signal: AbortSignal | undefined): Promise<Connection> {
    const origin = `${url.protocol}//${url.host}`;
    let state = this.#origins.get(origin);
    if (state === undefined) {
      state = { idle: [], active: 0, waiting: [] };
      this.#origins.set(origin, state);
    }
    let idle = state.idle.pop();
    // A socket destroyed a moment ago is still listed until its "close" event.
    while (idle?.socket.destroyed) idle = state.idle.pop();
    if (idle !== undefined) {
      state.active++;
      return Promise.resolve(this.#wake(idle));
    }
    if (state.active < this.#maxSockets) {
      state.active++;
      return this.#open(url, origin);
    }
    const waiting = state.waiting;
    return new Promise<Connection>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        signal,
        onAbort: () => {
          const i = waiting.indexOf(waiter);
          if (i >= 0) waiting.splice(i, 1);
          reject(signal?.reason);
        },
      };
      signal?.addEventListener("abort", waiter.onAbort, { once: true });
      waiting.push(waiter);
    });
  }

  /**
   * Gives `connection` back: to the next waiting request or the idle list when `reusable`,
   * else it is closed (and a waiting request gets a new connection).
   */
  release(connection: Connection, reusable: boolean): void {
    connection.handler = undefined;
    const state = this.#origins.get(connection.origin) as OriginState;
    const socket = connection.socket;
    const usable = reusable && !socket.destroyed && socket.readyState === "open";
    if (!usable) socket.destroy();
    const waiter = state.waiting.shift();
    if (waiter !== undefined) {
      waiter.signal?.removeEventListener("abort", waiter.onAbort);
      if (usable) waiter.resolve(this.#wake(connection));
      else this.#open(new URL(connection.origin), connection.origin).then(waiter.resolve, waiter.reject);
      return;
    }
    state.active--;
    if (!usable) return;
    connection.reused = true;
    socket.unref();
    socket.setTimeout(IDLE_TIMEOUT_MS);
    state.idle.push(connection);
  }

  #wake(connection: Connection): Connection {
    connection.reused = true;
    connection.socket.ref();
    connection.socket.setTimeout(0);
    return connection;
  }

  /** A new connection for a slot already counted in `active`; the slot goes back (to a waiting request) when connecting fails. */
  async #open(url: URL, origin: string): Promise<Connection> {
    try {
      return await this.#connect(url, origin);
    } catch (error) {
      const state = this.#origins.get(origin) as OriginState;
      const waiter = state.waiting.shift();
      if (waiter === undefined) state.active--;
      else {
        waiter.signal?.removeEventListener("abort", waiter.onAbort);
        this.#open(url, origin).then(waiter.resolve, waiter.reject);
      }
      throw error;
    }
  }

  async #connect(url: URL, origin: string): Promise<Connection> {
    const secure = url.protocol === "https:";
    const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
    const port = Number(url.port) || (secure ? 443 : 80);
    const proxy = this.#proxies?.for(url);
    const buffer = new Uint8Array(READ_BUFFER_BYTES);
    const onread = {
      buffer,
      callback: (length: number, read: Uint8Array): boolean => {
        if (connection.handler !== undefined) connection.handler.data(read, length);
        else socket.destroy(); // bytes nobody asked for: the connection is out of step
        return true;
      },
    };
    const servername = net.isIP(host) ? undefined : host;
    let socket: net.Socket;
    if (proxy?.socks !== undefined) {
      // Through a SOCKS5 proxy: a tunnel to the target, plain or with TLS inside it.
      const tunnel = await openSocksTunnel(proxy.socks, host, port);
      socket = secure ? tls.connect({ socket: tunnel, servername, ALPNProtocols: ["http/1.1"], ...this.#tls } as tls.ConnectionOptions) : tunnel;
      // A socket made before (or wrapping another) ignores `onread`: its reads arrive as "data" chunks.
      socket.on("data", (chunk: Buffer) => onread.callback(chunk.length, chunk));
    } else if (proxy !== undefined && secure) {
      // https through a proxy: a CONNECT tunnel, the TLS session to the target inside it.
      const tunnel = await openTunnel(proxy, host, port, this.#tls);
      socket = tls.connect({ socket: tunnel, servername, ALPNProtocols: ["http/1.1"], ...this.#tls } as tls.ConnectionOptions);
      // A TLS socket over another socket ignores `onread`: its reads arrive as "data" chunks.
      socket.on("data", (chunk: Buffer) => onread.callback(chunk.length, chunk));
    } else if (proxy !== undefined) {
      socket = dial(proxy.url, this.#tls, onread); // http through a proxy: absolute-form requests to it
    } else {
      socket = secure
        ? tls.connect({ host, port, servername, ALPNProtocols: ["http/1.1"], ...this.#tls, onread } as tls.ConnectionOptions)
        : net.connect({ host, port, noDelay: true, onread });
    }
    socket.setNoDelay(true);
    // Absolute-form requests only to an HTTP proxy that is not tunnelling.
    const connection: Connection = { socket, reused: false, handler: undefined, origin, proxy: secure || proxy?.socks !== undefined ? undefined : proxy };
    let failure: Error | undefined;
    socket.on("error", (error) => {
      failure = error;
    });
    socket.on("timeout", () => socket.destroy()); // only set while idle
    socket.on("close", () => {
      const handler = connection.handler;
      if (handler !== undefined) {
        connection.handler = undefined;
        handler.closed(failure);
        return;
      }
      const state = this.#origins.get(origin);
      const i = state?.idle.indexOf(connection) ?? -1;
      if (state !== undefined && i >= 0) state.idle.splice(i, 1);
    });
    return connection;
  }
}

type OnRead = { buffer: Uint8Array; callback: (length: number, read: Uint8Array) => boolean };

/** A socket to `url`'s host (TLS for `https:`). */
function dial(url: URL, tlsOptions: tls.ConnectionOptions, onread?: OnRead): net.Socket {
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  if (url.protocol === "https:") {
    const servername = net.isIP(host) ? undefined : host;
    return tls.connect({ host, port: Number(url.port) || 443, servername, ...tlsOptions, ...(onread && { onread }) } as tls.ConnectionOptions);
  }
  return net.connect({ host, port: Number(url.port) || 80, noDelay: true, ...(onread && { onread }) });
}

/** Largest answer to CONNECT read before giving up on the proxy. */
const MAX_CONNECT_HEAD = 64 * 1024;

/**
 * A socket through `proxy` to `host:port` (HTTP `CONNECT`), resolved once the proxy said
 * 200. Errors name the proxy by origin, never its credentials.
 */
function openTunnel(proxy: ProxyServer, host: string, port: number, tlsOptions: tls.ConnectionOptions): Promise<net.Socket> {
  const authority = host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
  const where = `the proxy ${proxy.url.origin}`;
  return new Promise((resolve, reject) => {
    const raw = dial(proxy.url, tlsOptions);
    let head = Buffer.alloc(0);
    const done = (error?: Error): void => {
      raw.off("data", onData);
      raw.off("error", onError);
      raw.off("close", onClose);
      if (error === undefined) {
        resolve(raw);
        return;
      }
      raw.destroy();
      reject(error);
    };
    const onError = (error: Error): void => done(new Error(`cannot reach ${where}: ${error.message}`, { cause: error }));
    const onClose = (): void => done(new Error(`${where} closed the connection before answering CONNECT ${authority}`));
    const onData = (data: Buffer): void => {
      head = Buffer.concat([head, data]);
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) {
        if (head.length > MAX_CONNECT_HEAD) done(new Error(`${where} sent an endless answer to CONNECT`));
        return;
      }
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(head.toString("latin1", 0, end))?.[1];
      if (status !== "200") {
        done(new Error(`${where} answered ${status ?? "something not HTTP"} to CONNECT ${authority}`));
        return;
      }
      if (end + 4 < head.length) raw.unshift(head.subarray(end + 4));
      done();
    };
    raw.on("data", onData);
    raw.on("error", onError);
    raw.on("close", onClose);
    const auth = proxy.authorization === undefined ? "" : `proxy-authorization: ${proxy.authorization}\r\n`;
    raw.write(`CONNECT ${authority} HTTP/1.1\r\nhost: ${authority}\r\n${auth}\r\n`, "latin1");
  });
}
