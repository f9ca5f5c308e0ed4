/**
 * Which way a GcsStore talks to Cloud Storage, from its options and the environment:
 * HMAC keys (the S3-compatible XML API, signed with SigV4), an OAuth bearer token, or
 * anonymous requests (public buckets).
 */
import { ZarrError } from "@zarr/spec";

/** Google's public endpoint for both the XML API and object downloads. */
export const GOOGLE_ENDPOINT = "https://storage.googleapis.com";

/** An HMAC key pair (Cloud Storage → Settings → Interoperability). */
export interface GcsHmacKey {
  accessKeyId: string;
  secretAccessKey: string;
}

/** An OAuth 2 access token, or a function returning a current one (called per request attempt). */
export type GcsToken = string | (() => string | Promise<string>);

/** The credential settings of a GcsStore (see `GcsStoreOptions`). */
export interface GcsAccessOptions {
  endpoint?: string;
  hmac?: GcsHmacKey;
  token?: GcsToken;
  anonymous?: boolean;
  /** Where environment variables are read from. Default `process.env` (none in browsers). */
  env?: Record<string, string | undefined>;
}

/** The way requests are authorised. */
export type GcsAccess = { kind: "anonymous" } | { kind: "token"; token: () => Promise<string> } | { kind: "hmac"; key: GcsHmacKey };

/** The resolved endpoint and access. */
export interface GcsResolved {
  endpoint: string;
  access: GcsAccess;
}

function invalid(message: string): never {
  throw new ZarrError("INVALID_ARGUMENT", message);
}

function processEnv(): Record<string, string | undefined> {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
}

/**
 * The endpoint: the option, else `ZARR_GCS_ENDPOINT`, else `STORAGE_EMULATOR_HOST` (as
 * Google's own clients read it; `host:port` without a scheme means `http://host:port`),
 * else `https://storage.googleapis.com`. Trailing slashes are dropped.
 */
export function resolveEndpoint(option: string | undefined, env: Record<string, string | undefined>): string {
  const chosen = option ?? (env.ZARR_GCS_ENDPOINT || undefined) ?? (env.STORAGE_EMULATOR_HOST || undefined) ?? GOOGLE_ENDPOINT;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(chosen) ? chosen : `http://${chosen}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return invalid(`Invalid GCS endpoint ${JSON.stringify(chosen)}: not a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") invalid(`Invalid GCS endpoint ${JSON.stringify(chosen)}: must be http: or https:`);
  if (url.search !== "" || url.username !== "" || url.password !== "") invalid(`Invalid GCS endpoint ${JSON.stringify(chosen)}: no query or credentials allowed`);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, "");
}

function checkHmac(key: unknown, where: string): GcsHmacKey {
  const k = key as Partial<GcsHmacKey> | null;
  if (typeof k !== "object" || k === null || typeof k.accessKeyId !== "string" || typeof k.secretAccessKey !== "string" || k.accessKeyId === "" || k.secretAccessKey === "") {
    invalid(`GCS ${where} must be { accessKeyId, secretAccessKey } with two non-empty strings`);
  }
  return { accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey };
}

function tokenFunction(token: unknown): () => Promise<string> {
  if (typeof token === "string") {
    if (token === "") invalid("GCS option `token` must not be empty");
    return async () => token;
  }
  if (typeof token !== "function") invalid("GCS option `token` must be a string or a function returning one");
  return async () => {
    const value: unknown = await (token as () => unknown)();
    if (typeof value !== "string" || value === "") throw new ZarrError("INVALID_ARGUMENT", "The GCS `token` function returned no token");
    return value;
  };
}

/**
 * Resolves the endpoint and the access mode. Options win over the environment; at most
 * one of `hmac`, `token` and `anonymous: true` may be given. Without any, the environment
 * is asked: `GCS_HMAC_ACCESS_KEY_ID` with `GCS_HMAC_SECRET` (both or neither), else
 * `GOOGLE_OAUTH_ACCESS_TOKEN`, else anonymous.
 */
export function resolveAccess(options: GcsAccessOptions): GcsResolved {
  const env = options.env ?? processEnv();
  if (options.endpoint !== undefined && typeof options.endpoint !== "string") invalid("GCS option `endpoint` must be a string");
  const endpoint = resolveEndpoint(options.endpoint, env);
  const given = (["hmac", "token"] as const).filter((name) => options[name] !== undefined);
  if (options.anonymous !== undefined && typeof options.anonymous !== "boolean") invalid("GCS option `anonymous` must be a boolean");
  if (options.anonymous === true) given.push("anonymous" as never);
  if (given.length > 1) invalid(`GCS options ${given.map((n) => `\`${n}\``).join(" and ")} exclude each other`);
  if (options.hmac !== undefined) return { endpoint, access: { kind: "hmac", key: checkHmac(options.hmac, "option `hmac`") } };
  if (options.token !== undefined) return { endpoint, access: { kind: "token", token: tokenFunction(options.token) } };
  if (options.anonymous === true) return { endpoint, access: { kind: "anonymous" } };
  const id = env.GCS_HMAC_ACCESS_KEY_ID || undefined;
  const secret = env.GCS_HMAC_SECRET || undefined;
  if ((id === undefined) !== (secret === undefined)) invalid("Set both GCS_HMAC_ACCESS_KEY_ID and GCS_HMAC_SECRET, or neither");
  if (id !== undefined && secret !== undefined) {
    return { endpoint, access: { kind: "hmac", key: checkHmac({ accessKeyId: id, secretAccessKey: secret }, "HMAC environment variables") } };
  }
  const token = env.GOOGLE_OAUTH_ACCESS_TOKEN || undefined;
  if (token !== undefined) return { endpoint, access: { kind: "token", token: tokenFunction(token) } };
  return { endpoint, access: { kind: "anonymous" } };
}
