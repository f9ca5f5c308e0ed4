/**
 * Turning errors thrown by the AWS SDK into `ZarrError`s: aborts become `ABORTED`, every
 * other failure `STORE_FAILED` with a message that names the store key, the object's
 * `s3://` location and the AWS error code and HTTP status (`AccessDenied (HTTP 403)`).
 */
import { ZarrError } from "@zarr/spec";

/** The fields of an SDK service error this package reads (all optional: any value may be thrown). */
interface AwsErrorShape {
  name?: unknown;
  message?: unknown;
  Code?: unknown;
  $metadata?: { httpStatusCode?: unknown };
}

function shape(error: unknown): AwsErrorShape {
  return typeof error === "object" && error !== null ? (error as AwsErrorShape) : {};
}

/** The AWS error code (`NoSuchKey`, `AccessDenied`, ...) or the error's name. */
export function awsErrorName(error: unknown): string {
  const e = shape(error);
  if (typeof e.Code === "string" && e.Code !== "") return e.Code;
  if (typeof e.name === "string" && e.name !== "") return e.name;
  return "Error";
}

/** The HTTP status of the failed response, when there was one. */
export function awsHttpStatus(error: unknown): number | undefined {
  const status = shape(error).$metadata?.httpStatusCode;
  return typeof status === "number" ? status : undefined;
}

/** `AccessDenied (HTTP 403): Access Denied`, or just the message for network errors. */
export function describeAwsError(error: unknown): string {
  const name = awsErrorName(error);
  const status = awsHttpStatus(error);
  const raw = shape(error).message;
  const message = typeof raw === "string" ? raw : String(error);
  const head = status === undefined ? name : `${name} (HTTP ${status})`;
  return message === "" || message === name || message === "UnknownError" ? head : `${head}: ${message}`;
}

/** True for the SDK's error when the request's AbortSignal fired. */
export function isAbortError(error: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true || awsErrorName(error) === "AbortError";
}

/**
 * True when the object does not exist: `NoSuchKey`, or a bodiless 404 (`HEAD` responses
 * have no error document, so the SDK names them `NotFound`). `NoSuchBucket` is NOT a
 * missing key: a wrong bucket must fail loudly instead of looking like an empty store.
 */
export function isMissingObject(error: unknown): boolean {
  const name = awsErrorName(error);
  if (name === "NoSuchKey") return true;
  return awsHttpStatus(error) === 404 && (name === "NotFound" || name === "UnknownError" || name === "Error");
}

/** True for `416 Range Not Satisfiable` (`InvalidRange`): the range starts past the end. */
export function isInvalidRange(error: unknown): boolean {
  return awsErrorName(error) === "InvalidRange" || awsHttpStatus(error) === 416;
}

/**
 * Wraps an SDK failure: `ABORTED` when `signal` fired, a `ZarrError` unchanged, else
 * `STORE_FAILED` reading "`<what>`: `<AWS name> (HTTP <status>)`: `<message>`".
 */
export function storeError(error: unknown, what: string, key: string | undefined, signal: AbortSignal | undefined): ZarrError {
  if (error instanceof ZarrError) return error;
  if (isAbortError(error, signal)) {
    return new ZarrError("ABORTED", `${what}: the operation was aborted`, { key, cause: signal?.reason ?? error });
  }
  return new ZarrError("STORE_FAILED", `${what}: ${describeAwsError(error)}`, { key, cause: error });
}
