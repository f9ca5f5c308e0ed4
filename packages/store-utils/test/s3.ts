/**
 * A real s3rver (the S3-protocol server from npm) on 127.0.0.1, mounted in our own
 * `http.Server` on an ephemeral port with a fresh temporary directory, reached through
 * @zarr/store-s3 (the real AWS SDK client). Adapted from @zarr/store-s3's test helpers.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { S3Store, type S3StoreOptions } from "@zarr/store-s3";
import S3rver from "s3rver";

/** s3rver's built-in account. */
export const CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

export interface TestS3 {
  endpoint: string;
  /** When set, runs before s3rver for every request; returns true when it answered itself. */
  intercept: ((req: IncomingMessage, res: ServerResponse) => boolean) | undefined;
  /** A store on `bucket` under `prefix`. */
  store(options: Omit<S3StoreOptions, "client" | "endpoint"> & { bucket: string }): S3Store;
  close(): Promise<void>;
}

/** Starts s3rver with the given buckets; `close()` stops it and removes its directory. */
export async function startS3(buckets: string[]): Promise<TestS3> {
  // s3rver keeps each object as several files: a RAM-backed directory is much faster.
  const base = existsSync("/dev/shm") ? "/dev/shm" : tmpdir();
  const directory = mkdtempSync(join(base, "zarr-utils-s3rver-"));
  const s3rver = new S3rver({ silent: true, directory, configureBuckets: buckets.map((name) => ({ name })) });
  await s3rver.configureBuckets();
  const handle = s3rver.callback();
  const stores: S3Store[] = [];
  const server = createServer((req, res) => {
    if (state.intercept?.(req, res)) return;
    handle(req, res);
  });
  const state: TestS3 = {
    endpoint: "",
    intercept: undefined,
    store(options) {
      // s3rver now and then answers 500 when deleting keys concurrently; retries absorb it.
      const store = new S3Store({ endpoint: state.endpoint, credentials: CREDENTIALS, maxAttempts: 3, ...options });
      stores.push(store);
      return store;
    },
    async close() {
      for (const s of stores) s.close();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
      rmSync(directory, { recursive: true, force: true });
    },
  };
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}
