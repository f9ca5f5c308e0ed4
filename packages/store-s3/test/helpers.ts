/**
 * A real s3rver (the S3-protocol server from npm) on 127.0.0.1 with an ephemeral port and
 * a fresh temporary directory, reached through the real AWS SDK client.
 *
 * s3rver's request handler is mounted in our own `http.Server` so that tests can see the
 * requests that reach the server (signed or not, which Range, how many) and, for the few
 * behaviours s3rver cannot produce itself (a 503 to retry, a slow answer to abort, a
 * DeleteObjects answer with per-key errors), answer a request before s3rver does.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { Agent, createServer, type IncomingMessage, request, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import { S3Store, type S3StoreOptions } from "../src/index.js";

/** s3rver's built-in account. */
export const CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

/** One request as the server saw it. */
export interface SeenRequest {
  method: string;
  url: string;
  signed: boolean;
  range: string | undefined;
  /** Whether the request carried a CRC32 checksum header. */
  crc32: boolean;
}

/** Answers a request itself (returns true) or lets s3rver answer it (returns false). */
export type Interceptor = (req: IncomingMessage, res: ServerResponse) => boolean;

export interface TestS3 {
  endpoint: string;
  /** Requests seen since the last `reset()`. */
  seen: SeenRequest[];
  /** When set, runs before s3rver for every request. */
  intercept: Interceptor | undefined;
  reset(): void;
  /** A client for the server with s3rver's credentials (one attempt unless told). */
  client(maxAttempts?: number): S3Client;
  /**
   * Bulk-loads objects with plain unsigned HTTP PUTs (s3rver accepts those), `limit` in
   * flight: fixtures for listing tests, several times faster than going through the SDK.
   */
  putMany(bucket: string, keys: readonly string[], value: Uint8Array, limit?: number): Promise<void>;
  /** A store on `bucket` with its own client (3 attempts per request unless told). */
  store(options: Omit<S3StoreOptions, "client"> & { bucket: string }): S3Store;
  close(): Promise<void>;
}

/** Starts s3rver with the given buckets; `close()` stops it and removes its directory. */
export async function startS3(buckets: string[]): Promise<TestS3> {
  // s3rver keeps each object as three files; on a RAM-backed file system (Linux's
  // /dev/shm) parallel PUTs are several times faster than on a disk.
  const base = existsSync("/dev/shm") ? "/dev/shm" : tmpdir();
  const directory = mkdtempSync(join(base, "zarr-s3rver-"));
  const s3rver = new S3rver({ silent: true, directory, configureBuckets: buckets.map((name) => ({ name })) });
  await s3rver.configureBuckets();
  const handle = s3rver.callback();
  const clients: S3Client[] = [];
  const stores: S3Store[] = [];
  const state: TestS3 = {
    endpoint: "",
    seen: [],
    intercept: undefined,
    reset() {
      state.seen.length = 0;
      state.intercept = undefined;
    },
    client(maxAttempts = 1) {
      const client = new S3Client({
        endpoint: state.endpoint,
        forcePathStyle: true,
        region: "us-east-1",
        credentials: CREDENTIALS,
        maxAttempts,
      });
      clients.push(client);
      return client;
    },
    store(options) {
      const store = new S3Store({
        endpoint: state.endpoint,
        credentials: options.anonymous ? undefined : CREDENTIALS,
        // s3rver 3.7 deletes the keys of one DeleteObjects request concurrently and then
        // races removing their emptied directories, answering 500 InternalError now and
        // then; the SDK's standard retry (as against S3's own 500s) absorbs that.
        maxAttempts: 3,
        ...options,
      });
      stores.push(store);
      return store;
    },
    async putMany(bucket, keys, value, limit = 16) {
      const agent = new Agent({ keepAlive: true, maxSockets: limit });
      const url = new URL(state.endpoint);
      const put = (key: string) =>
        new Promise<void>((resolve, reject) => {
          const path = `/${bucket}/${key.split("/").map(encodeURIComponent).join("/")}`;
          const req = request({ host: url.hostname, port: url.port, method: "PUT", path, agent, headers: { "content-length": value.length } }, (res) => {
            res.resume();
            res.on("end", () => (res.statusCode === 200 ? resolve() : reject(new Error(`PUT ${path}: HTTP ${res.statusCode}`))));
          });
          req.on("error", reject);
          req.end(value);
        });
      try {
        await inParallel(keys, limit, put);
      } finally {
        agent.destroy();
      }
    },
    async close() {
      for (const c of clients) c.destroy();
      for (const s of stores) s.close();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
      rmSync(directory, { recursive: true, force: true });
    },
  };
  const server = createServer((req, res) => {
    state.seen.push({
      method: req.method ?? "",
      url: req.url ?? "",
      signed: req.headers.authorization !== undefined,
      range: req.headers.range,
      crc32: req.headers["x-amz-checksum-crc32"] !== undefined,
    });
    if (state.intercept?.(req, res)) return;
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

/** Bytes 0, 1, 2, ... (mod 251) of length n. */
export function bytesOf(n: number, seed = 0): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = (i * 7 + seed) % 251;
  return out;
}

/** Runs `fn` over `items` with at most `limit` in flight. */
export async function inParallel<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
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
