/**
 * s3rver on 127.0.0.1 for the partitioned-run tests: one bucket, `jobs`, in a temporary
 * folder (in /dev/shm where there is one), with the environment a `zarr` process needs to
 * reach it and `s3://` URLs that point there.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { TEST_DIR } from "./helpers.js";

// s3rver comes from @zarr/store-utils' dev dependencies (the CLI package has none of its own).
const S3rver = createRequire(path.resolve(TEST_DIR, "../../store-utils/package.json"))("s3rver");

/** The credentials s3rver accepts, as a child process's environment. */
export const S3_ENV = { AWS_ACCESS_KEY_ID: "S3RVER", AWS_SECRET_ACCESS_KEY: "S3RVER", AWS_REGION: "us-east-1" };

export interface LocalS3 {
  /** `http://127.0.0.1:PORT`. */
  endpoint: string;
  /** The `s3://jobs/PREFIX?endpoint=…&forcePathStyle=true` URL the CLI takes. */
  url(prefix: string): string;
  /** Stops the server and removes its folder. */
  close(): Promise<void>;
}

/** Starts s3rver with the bucket `jobs`; `label` names its temporary folder (under `fallbackDir` without /dev/shm). */
export async function startLocalS3(label: string, fallbackDir: string): Promise<LocalS3> {
  const directory = mkdtempSync(path.join(existsSync("/dev/shm") ? "/dev/shm" : fallbackDir, `${label}-`));
  const s3rver = new S3rver({ silent: true, directory, configureBuckets: [{ name: "jobs" }] });
  await s3rver.configureBuckets();
  const server = createServer(s3rver.callback());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint,
    url: (prefix) => `s3://jobs/${prefix}?endpoint=${encodeURIComponent(endpoint)}&forcePathStyle=true`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
