// Minimal types for the parts of s3rver (CommonJS, untyped) the tests of store-s3, store-gcs and store-utils use; their tsconfig.json files include this one copy.
declare module "s3rver" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory: string;
    resetOnClose?: boolean;
    allowMismatchedSignatures?: boolean;
    vhostBuckets?: boolean;
    configureBuckets?: { name: string; configs?: (string | Uint8Array)[] }[];
  }

  export default class S3rver {
    constructor(options: S3rverOptions);
    /** Creates the configured buckets without starting a server. */
    configureBuckets(): Promise<void>;
    /** The request handler, for mounting in one's own `http.Server`. */
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
