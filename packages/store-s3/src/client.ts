/**
 * Building the `S3Client` a store uses when the caller does not bring one: region
 * resolution with a fallback, custom endpoints with path-style addressing, static or
 * default-chain credentials, and anonymous (unsigned) access.
 */
import { S3Client, type S3ClientConfig } from "@aws-sdk/client-s3";
import { ZarrError } from "@zarr/spec";

/** The settings that shape a client the store builds itself. */
export interface S3ClientSettings {
  /** AWS region (`eu-west-1`). Default: the SDK's (AWS_REGION, ~/.aws/config), else `us-east-1`. */
  region?: string;
  /** Custom endpoint of an S3-compatible server (`http://127.0.0.1:9000`). */
  endpoint?: string;
  /** Path-style URLs (`endpoint/bucket/key`). Default: `true` with a custom endpoint, else `false`. */
  forcePathStyle?: boolean;
  /** Static credentials or a provider. Default: the SDK's standard provider chain. */
  credentials?: S3ClientConfig["credentials"];
  /** Send unsigned requests (public buckets); no credentials are looked up. */
  anonymous?: boolean;
  /** Attempts per request, including the first, for the SDK's retry strategy. Default 3. */
  maxAttempts?: number;
  /** Any other `S3ClientConfig` setting (the options above take precedence). */
  clientConfig?: S3ClientConfig;
}

/** The region when none is configured anywhere. */
export const FALLBACK_REGION = "us-east-1";

/**
 * A region provider: the SDK's own resolution (environment, shared config file), asked
 * once through a throwaway client, else `us-east-1`. With a custom endpoint the region is
 * only a signing parameter, and for AWS the client follows region redirects anyway.
 */
function defaultRegion(): () => Promise<string> {
  let region: Promise<string> | undefined;
  return () => {
    region ??= (async () => {
      const probe = new S3Client({});
      try {
        return await probe.config.region();
      } catch {
        return FALLBACK_REGION;
      } finally {
        probe.destroy();
      }
    })();
    return region;
  };
}

type AuthScheme = NonNullable<S3ClientConfig["httpAuthSchemes"]>[number];

/**
 * Unsigned requests through the SDK's identity-and-auth hooks: the auth-scheme provider
 * selects Smithy's `noAuth` scheme, whose identity is empty and whose signer passes the
 * request through untouched. (The older `signer: {sign: r => r}` trick no longer works on
 * its own: the SDK still resolves credentials before signing and fails without any.)
 */
const NO_AUTH_SCHEME: AuthScheme = {
  schemeId: "smithy.api#noAuth",
  identityProvider: () => async () => ({}),
  signer: { sign: async (request) => request },
};

function checkEndpoint(endpoint: string): void {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new ZarrError("INVALID_ARGUMENT", `Invalid S3 endpoint ${JSON.stringify(endpoint)}: not a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ZarrError("INVALID_ARGUMENT", `Invalid S3 endpoint ${JSON.stringify(endpoint)}: must be http: or https:`);
  }
}

/** Builds the client for `settings`; see `S3ClientSettings` for the defaults. */
export function buildS3Client(settings: S3ClientSettings): S3Client {
  const { region, endpoint, forcePathStyle, credentials, anonymous, maxAttempts, clientConfig = {} } = settings;
  if (anonymous === true && credentials !== undefined) {
    throw new ZarrError("INVALID_ARGUMENT", "S3 options `anonymous` and `credentials` exclude each other");
  }
  if (maxAttempts !== undefined && (!Number.isSafeInteger(maxAttempts) || maxAttempts < 1)) {
    throw new ZarrError("INVALID_ARGUMENT", `Invalid S3 maxAttempts ${maxAttempts}: must be an integer >= 1`);
  }
  if (endpoint !== undefined) checkEndpoint(endpoint);
  const isCustom = endpoint !== undefined || clientConfig.endpoint !== undefined;
  const config: S3ClientConfig = {
    // Third-party servers (MinIO, Ceph, R2, older releases especially) reject or mishandle
    // the SDK's default CRC32 headers on every request; send checksums only where S3
    // requires them (DeleteObjects) unless the caller says otherwise.
    ...(isCustom ? { requestChecksumCalculation: "WHEN_REQUIRED", responseChecksumValidation: "WHEN_REQUIRED" } : {}),
    // On AWS a guessed or default region must not break buckets that live elsewhere.
    ...(isCustom ? {} : { followRegionRedirects: true }),
    ...clientConfig,
    region: region ?? clientConfig.region ?? defaultRegion(),
    forcePathStyle: forcePathStyle ?? clientConfig.forcePathStyle ?? isCustom,
  };
  if (endpoint !== undefined) config.endpoint = endpoint;
  if (maxAttempts !== undefined) config.maxAttempts = maxAttempts;
  if (credentials !== undefined) config.credentials = credentials;
  if (anonymous === true) {
    config.httpAuthSchemes = [NO_AUTH_SCHEME];
    config.httpAuthSchemeProvider = () => [{ schemeId: NO_AUTH_SCHEME.schemeId }];
  }
  return new S3Client(config);
}
