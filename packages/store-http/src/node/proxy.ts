/**
 * Proxies for nodeFetch: which proxy (if any) a request goes through, from explicit
 * settings or from the environment (`HTTPS_PROXY`, `HTTP_PROXY`, `ALL_PROXY`, `NO_PROXY`,
 * upper or lower case, lower case first, as curl reads them). HTTP(S) proxies and SOCKS5
 * (`socks5://`, `socks5h://`) are supported.
 */
import type { SocksProxy } from "./socks.js";

/** Proxy settings of {@link createNodeFetch}. */
export interface ProxySettings {
  /**
   * Proxy for `http:` URLs, e.g. `http://proxy.example:3128` (credentials in the URL become
   * `Proxy-Authorization: Basic`) or `socks5h://user:pass@proxy.example:1080` (SOCKS5; with
   * `socks5h:` the proxy resolves host names, with `socks5:` they are resolved here).
   */
  http?: string;
  /** Proxy for `https:` URLs (an HTTP proxy is asked to `CONNECT`; the TLS session to the target runs inside the tunnel). */
  https?: string;
  /**
   * Hosts reached directly, comma- or space-separated: `*` (all), a host name (also
   * matching its subdomains; a leading `.` or `*.` means the same), an IP address, each
   * optionally with `:port`.
   */
  noProxy?: string;
}

/** The proxy settings in `env` (default `process.env`): `https_proxy`, `http_proxy`, `all_proxy`, `no_proxy` and their upper-case forms. */
export function proxyFromEnv(env: Record<string, string | undefined> = process.env): ProxySettings {
  const read = (name: string): string | undefined => {
    // An empty variable counts as unset (lower case first, then upper case).
    const lower = env[name.toLowerCase()]?.trim();
    const value = lower === undefined || lower === "" ? env[name.toUpperCase()]?.trim() : lower;
    return value === undefined || value === "" ? undefined : value;
  };
  // ALL_PROXY (curl's fallback for every scheme) fills in what the scheme's own variable leaves unset.
  const all = read("all_proxy");
  return { http: read("http_proxy") ?? all, https: read("https_proxy") ?? all, noProxy: read("no_proxy") };
}

/** A proxy as the transport uses it. */
export interface ProxyServer {
  url: URL;
  /** `Basic …` from the proxy URL's credentials (HTTP proxies). */
  authorization: string | undefined;
  /** For `socks5:`/`socks5h:` proxies: how to tunnel through them. */
  socks?: SocksProxy;
}

/** Parses a proxy URL (a bare `host:port` is taken as `http://host:port`); a TypeError names the setting, never its credentials. */
export function parseProxy(value: string, setting: string): ProxyServer {
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
  } catch {
    throw new TypeError(`${setting} is not a valid proxy URL`);
  }
  const user = decodeURIComponent(url.username);
  if (url.protocol === "socks5:" || url.protocol === "socks5h:" || url.protocol === "socks:") {
    // curl's meanings: socks5h (and plain socks) let the proxy resolve names, socks5 resolves them here.
    const credentials = user !== "" || url.password !== "";
    const socks: SocksProxy = {
      url,
      remoteDns: url.protocol !== "socks5:",
      username: credentials ? user : undefined,
      password: credentials ? decodeURIComponent(url.password) : undefined,
    };
    return { url, authorization: undefined, socks };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError(`${setting}: only http:, https:, socks5: and socks5h: proxies are supported, got ${url.protocol}`);
  }
  const authorization = user === "" && url.password === "" ? undefined : `Basic ${Buffer.from(`${user}:${decodeURIComponent(url.password)}`).toString("base64")}`;
  return { url, authorization };
}

/** Whether `url` is excluded from proxying by a `NO_PROXY` list. */
export function bypassesProxy(url: URL, noProxy: string | undefined): boolean {
  if (noProxy === undefined) return false;
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  for (let entry of noProxy.split(/[\s,]+/)) {
    entry = entry.trim().toLowerCase();
    if (entry === "") continue;
    if (entry === "*") return true;
    let entryPort: string | undefined;
    const m = /^(.*?)(?::(\d+))?$/.exec(entry.startsWith("[") ? entry.replace(/^\[(.*)\](:\d+)?$/, "$1$2") : entry);
    if (m !== null && m[2] !== undefined && !entry.includes("::")) {
      entry = m[1];
      entryPort = m[2];
    }
    if (entryPort !== undefined && entryPort !== port) continue;
    const name = entry.replace(/^\*?\./, "");
    if (host === name || host.endsWith(`.${name}`)) return true;
  }
  return false;
}

/** Resolved proxy settings: the proxy for each URL. */
export class ProxyChooser {
  readonly #http: ProxyServer | undefined;
  readonly #https: ProxyServer | undefined;
  readonly #noProxy: string | undefined;

  constructor(settings: ProxySettings) {
    this.#http = settings.http === undefined ? undefined : parseProxy(settings.http, "the http proxy");
    this.#https = settings.https === undefined ? undefined : parseProxy(settings.https, "the https proxy");
    this.#noProxy = settings.noProxy;
  }

  /** The proxy for `url`, or `undefined` to connect directly. */
  for(url: URL): ProxyServer | undefined {
    const proxy = url.protocol === "https:" ? this.#https : this.#http;
    if (proxy === undefined || bypassesProxy(url, this.#noProxy)) return undefined;
    return proxy;
  }
}
