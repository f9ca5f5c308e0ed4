import { zarrVitestConfig } from "../../vitest.shared.mjs";

// s3rver (the S3 server the tests run) encrypts ListObjectsV2 continuation tokens with
// DES, which OpenSSL 3 (Node >= 17) only offers through its legacy provider: without it
// every listing past 1000 keys fails with a 500. The flag is process-wide, so the tests
// run in forked processes started with it.
export default zarrVitestConfig({ pool: "forks", execArgv: ["--openssl-legacy-provider"] });
