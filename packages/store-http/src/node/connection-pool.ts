/**
 * Keep-alive TCP/TLS connections per origin, at most `maxSockets` in use per origin, the
 * rest of the requests waiting in line. Each socket reads into its own reusable buffer
 * (`onread`), so receiving allocates nothing per read; idle sockets do not keep the
 * process alive and are closed after a while.
 */
import net from "node:net";
import tls from "node:tls";

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

  constructor(maxSockets: number, tlsOptions: tls.ConnectionOptions = {}) {
    this.#maxSockets = maxSockets;
    this.#tls = tlsOptions;
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
      return Promise.resolve(this.#connect(url, origin));
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
      waiter.resolve(usable ? this.#wake(connection) : this.#connect(new URL(connection.origin), connection.origin));
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

  #connect(url: URL, origin: string): Connection {
    const secure = url.protocol === "https:";
    const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
    const port = Number(url.port) || (secure ? 443 : 80);
    const buffer = new Uint8Array(READ_BUFFER_BYTES);
    const onread = {
      buffer,
      callback: (length: number, read: Uint8Array): boolean => {
        if (connection.handler !== undefined) connection.handler.data(read, length);
        else socket.destroy(); // bytes nobody asked for: the connection is out of step
        return true;
      },
    };
    const socket: net.Socket = secure
      ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host, ALPNProtocols: ["http/1.1"], ...this.#tls, onread } as tls.ConnectionOptions)
      : net.connect({ host, port, noDelay: true, onread });
    if (secure) socket.setNoDelay(true);
    const connection: Connection = { socket, reused: false, handler: undefined, origin };
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
