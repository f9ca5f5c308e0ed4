/**
 * A small stand-in for storage.googleapis.com on 127.0.0.1, following the XML API: objects
 * at `/BUCKET/KEY` (GET with Range, HEAD, PUT, DELETE) and bucket listings at
 * `GET /BUCKET?prefix=…&delimiter=…&marker=…` as `ListBucketResult` pages of `pageSize`
 * entries with `NextMarker`. With `token` set, every request needs `Authorization: Bearer <token>`
 * (a 401 otherwise, as GCS answers); without it, reads are public and writes need a token.
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface SeenRequest {
  method: string;
  url: string;
  authorization: string | undefined;
  range: string | undefined;
}

export interface FakeGcs {
  endpoint: string;
  /** bucket → key → bytes */
  buckets: Map<string, Map<string, Uint8Array>>;
  seen: SeenRequest[];
  /** Entries per listing page (GCS: 1000). */
  pageSize: number;
  /** The bearer token required (for writes always, for reads when `privateReads`). */
  token: string | undefined;
  privateReads: boolean;
  close(): Promise<void>;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
}

function errorXml(res: ServerResponse, status: number, code: string): void {
  res.writeHead(status, { "content-type": "application/xml" });
  res.end(`<?xml version='1.0' encoding='UTF-8'?><Error><Code>${code}</Code><Message>${code}</Message></Error>`);
}

function listing(state: FakeGcs, bucket: string, objects: Map<string, Uint8Array>, query: URLSearchParams): string {
  const prefix = query.get("prefix") ?? "";
  const delimiter = query.get("delimiter") ?? "";
  const marker = query.get("marker") ?? "";
  const entries: { name: string; isPrefix: boolean }[] = [];
  const seenPrefixes = new Set<string>();
  for (const name of [...objects.keys()].sort()) {
    if (!name.startsWith(prefix)) continue;
    const cut = delimiter === "" ? -1 : name.indexOf(delimiter, prefix.length);
    if (cut !== -1) {
      const common = name.slice(0, cut + delimiter.length);
      if (!seenPrefixes.has(common)) {
        seenPrefixes.add(common);
        entries.push({ name: common, isPrefix: true });
      }
    } else entries.push({ name, isPrefix: false });
  }
  const after = entries.filter((e) => e.name > marker);
  const page = after.slice(0, state.pageSize);
  const truncated = after.length > page.length;
  let xml = `<?xml version='1.0' encoding='UTF-8'?><ListBucketResult xmlns='http://doc.s3.amazonaws.com/2006-03-01'><Name>${escapeXml(bucket)}</Name><Prefix>${escapeXml(prefix)}</Prefix><Marker>${escapeXml(marker)}</Marker>`;
  if (truncated) xml += `<NextMarker>${escapeXml(page[page.length - 1].name)}</NextMarker>`;
  xml += `<IsTruncated>${truncated}</IsTruncated>`;
  for (const e of page) {
    if (e.isPrefix) xml += `<CommonPrefixes><Prefix>${escapeXml(e.name)}</Prefix></CommonPrefixes>`;
    else xml += `<Contents><Key>${escapeXml(e.name)}</Key><Size>${objects.get(e.name)?.length}</Size></Contents>`;
  }
  return `${xml}</ListBucketResult>`;
}

function etagOf(bytes: Uint8Array): string {
  return `"${createHash("md5").update(bytes).digest("hex")}"`;
}

function sendObject(req: IncomingMessage, res: ServerResponse, bytes: Uint8Array): void {
  const headers: Record<string, string | number> = { etag: etagOf(bytes), "accept-ranges": "bytes", "content-type": "application/octet-stream" };
  const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? "");
  if (range === null) {
    res.writeHead(200, { ...headers, "content-length": bytes.length });
    res.end(req.method === "HEAD" ? undefined : bytes);
    return;
  }
  const size = bytes.length;
  let start: number;
  let end: number;
  if (range[1] === "") [start, end] = [Math.max(0, size - Number(range[2])), size - 1];
  else [start, end] = [Number(range[1]), range[2] === "" ? size - 1 : Math.min(Number(range[2]), size - 1)];
  if (start >= size) {
    res.writeHead(416, { "content-range": `bytes */${size}` });
    res.end();
    return;
  }
  res.writeHead(206, { ...headers, "content-length": end - start + 1, "content-range": `bytes ${start}-${end}/${size}` });
  res.end(req.method === "HEAD" ? undefined : bytes.subarray(start, end + 1));
}

/** Starts the server with empty `buckets`. */
export async function startFakeGcs(bucketNames: string[]): Promise<FakeGcs> {
  const state: FakeGcs = {
    endpoint: "",
    buckets: new Map(bucketNames.map((b) => [b, new Map()])),
    seen: [],
    pageSize: 1000,
    token: undefined,
    privateReads: false,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = new Uint8Array(Buffer.concat(chunks));
    state.seen.push({ method: req.method ?? "", url: req.url ?? "", authorization: req.headers.authorization, range: req.headers.range });
    const url = new URL(req.url ?? "/", "http://x");
    const [, bucketName, ...rest] = url.pathname.split("/");
    const key = rest.map(decodeURIComponent).join("/");
    const write = req.method === "PUT" || req.method === "DELETE";
    if (state.token !== undefined && (write || state.privateReads) && req.headers.authorization !== `Bearer ${state.token}`) {
      return errorXml(res, 401, "AuthenticationRequired");
    }
    if (state.token === undefined && write) return errorXml(res, 401, "AuthenticationRequired");
    const objects = state.buckets.get(decodeURIComponent(bucketName));
    if (objects === undefined) return errorXml(res, 404, "NoSuchBucket");
    if (key === "") {
      if (req.method !== "GET") return errorXml(res, 405, "MethodNotAllowed");
      res.writeHead(200, { "content-type": "application/xml" });
      return res.end(listing(state, bucketName, objects, url.searchParams));
    }
    if (req.method === "PUT") {
      objects.set(key, body);
      res.writeHead(200, { etag: etagOf(body) });
      return res.end();
    }
    if (req.method === "DELETE") {
      const had = objects.delete(key);
      if (!had) return errorXml(res, 404, "NoSuchKey");
      res.writeHead(204);
      return res.end();
    }
    const bytes = objects.get(key);
    if (bytes === undefined) return errorXml(res, 404, "NoSuchKey");
    sendObject(req, res, bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

/** Everything an async iterable yields. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of iterable) out.push(x);
  return out;
}

/** The rejection of `promise` (fails the test when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<{ code?: string; message: string; key?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { code?: string; message: string; key?: string };
  }
  throw new Error("expected a rejection");
}
