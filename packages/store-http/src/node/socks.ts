/**
 * A TCP tunnel through a SOCKS5 proxy (RFC 1928), with username/password authentication
 * (RFC 1929) when the proxy URL carries credentials. `socks5h://` lets the proxy resolve
 * the target's name (curl's meaning); `socks5://` resolves it here and sends the address.
 */
import { lookup } from "node:dns/promises";
import net from "node:net";

/** What the tunnel needs of a SOCKS proxy setting. */
export interface SocksProxy {
  url: URL;
  /** True for `socks5h:` (the proxy resolves names). */
  remoteDns: boolean;
  username: string | undefined;
  password: string | undefined;
}

/** RFC 1928's reply codes, for error messages. */
const REPLIES: Record<number, string> = {
  1: "general SOCKS server failure",
  2: "connection not allowed by ruleset",
  3: "network unreachable",
  4: "host unreachable",
  5: "connection refused",
  6: "TTL expired",
  7: "command not supported",
  8: "address type not supported",
};

/** Reads exactly `n` bytes at a time from a socket, keeping what arrives beyond them. */
class ExactReader {
  #held: Buffer = Buffer.alloc(0);
  #want: { n: number; resolve(b: Buffer): void } | undefined;
  #failure: Error | undefined;
  #fail: ((e: Error) => void) | undefined;

  constructor(private readonly socket: net.Socket) {
    socket.on("data", this.#onData);
  }

  #onData = (data: Buffer): void => {
    this.#held = this.#held.length === 0 ? data : Buffer.concat([this.#held, data]);
    this.#serve();
  };

  #serve(): void {
    const want = this.#want;
    if (want === undefined || this.#held.length < want.n) return;
    this.#want = undefined;
    const out = this.#held.subarray(0, want.n);
    this.#held = this.#held.subarray(want.n);
    want.resolve(out);
  }

  read(n: number): Promise<Buffer> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    return new Promise<Buffer>((resolve, reject) => {
      this.#want = { n, resolve };
      this.#fail = reject;
      this.#serve();
    });
  }

  fail(error: Error): void {
    this.#failure ??= error;
    this.#want = undefined;
    this.#fail?.(error);
  }

  /** Stops reading; what arrived beyond the last read goes back to the socket. */
  release(): void {
    this.socket.off("data", this.#onData);
    if (this.#held.length > 0) this.socket.unshift(this.#held);
  }
}

/** The address part of a SOCKS5 CONNECT request (RFC 1928): IPv4, IPv6 or a domain name. */
export function socksAddress(host: string): Buffer {
  const family = net.isIP(host);
  if (family === 4) return Buffer.from([1, ...host.split(".").map(Number)]);
  if (family === 6) {
    const words = expandIpv6(host);
    const out = Buffer.alloc(17);
    out[0] = 4;
    for (const [i, w] of words.entries()) out.writeUInt16BE(w, 1 + 2 * i);
    return out;
  }
  const name = Buffer.from(host, "utf8");
  if (name.length > 255) throw new Error(`the host name ${host.slice(0, 40)}… is too long for SOCKS5`);
  return Buffer.concat([Buffer.from([3, name.length]), name]);
}

/** The eight 16-bit words of an IPv6 address (with `::` and an embedded IPv4 tail). */
function expandIpv6(host: string): number[] {
  let text = host;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4 !== null) {
    const [a, b, c, d] = v4[1].split(".").map(Number);
    text = `${text.slice(0, -v4[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, undefined];
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const zeros = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(zeros).fill("0"), ...right].map((w) => Number.parseInt(w, 16));
}

/**
 * A socket through the SOCKS5 proxy `proxy` to `host:port`, resolved once the proxy has
 * connected it. Errors name the proxy by host and port, never its credentials.
 */
export async function openSocksTunnel(proxy: SocksProxy, host: string, port: number): Promise<net.Socket> {
  const where = `the SOCKS proxy ${proxy.url.host}`;
  const proxyHost = proxy.url.hostname.startsWith("[") ? proxy.url.hostname.slice(1, -1) : proxy.url.hostname;
  const target = proxy.remoteDns || net.isIP(host) !== 0 ? host : (await lookup(host)).address;
  const socket = net.connect({ host: proxyHost, port: Number(proxy.url.port) || 1080, noDelay: true });
  const reader = new ExactReader(socket);
  const onError = (error: Error): void => reader.fail(new Error(`cannot reach ${where}: ${error.message}`, { cause: error }));
  const onClose = (): void => reader.fail(new Error(`${where} closed the connection before connecting to ${host}:${port}`));
  socket.on("error", onError);
  socket.on("close", onClose);
  try {
    const credentials = proxy.username !== undefined || proxy.password !== undefined;
    socket.write(Buffer.from(credentials ? [5, 2, 2, 0] : [5, 1, 0]));
    const [version, method] = await reader.read(2);
    if (version !== 5) throw new Error(`${where} does not speak SOCKS5`);
    if (method === 2) {
      const user = Buffer.from(proxy.username ?? "", "utf8");
      const pass = Buffer.from(proxy.password ?? "", "utf8");
      if (user.length > 255 || pass.length > 255) throw new Error(`the credentials for ${where} are too long for SOCKS5`);
      socket.write(Buffer.concat([Buffer.from([1, user.length]), user, Buffer.from([pass.length]), pass]));
      const [, status] = await reader.read(2);
      if (status !== 0) throw new Error(`${where} refused the username and password`);
    } else if (method !== 0) {
      throw new Error(`${where} accepts none of the authentication methods offered${credentials ? "" : " (it may need a username and password)"}`);
    }
    const portBytes = Buffer.alloc(2);
    portBytes.writeUInt16BE(port);
    socket.write(Buffer.concat([Buffer.from([5, 1, 0]), socksAddress(target), portBytes]));
    const [, reply, , addressType] = await reader.read(4);
    if (reply !== 0) throw new Error(`${where} could not connect to ${host}:${port}: ${REPLIES[reply] ?? `reply ${reply}`}`);
    const addressLength = addressType === 1 ? 4 : addressType === 4 ? 16 : addressType === 3 ? (await reader.read(1))[0] : -1;
    if (addressLength < 0) throw new Error(`${where} sent a malformed reply`);
    await reader.read(addressLength + 2);
    reader.release();
    socket.off("error", onError);
    socket.off("close", onClose);
    return socket;
  } catch (error) {
    socket.destroy();
    throw error;
  }
}
