/**
 * What `request` (transport.ts) does when an attempt gives no result: the error that ends
 * the request, or the wait before the next attempt; and the errors of aborted requests and
 * of headers that could not be built. Loaded on the first failure: reads that succeed never
 * load it (bundle size).
 *
 * It takes the store's up-front functions from the transport (`t.kit`), never imports their
 * modules (see `KIT` in transport.ts).
 */
import { BodyLimitExceeded, ZarrError } from "@zarr/spec";
import type { HttpStoreSettings } from "./options.js";
import type { RequestSpec } from "./request-spec.js";
import { isRetryableStatus, parseRetryAfter, retryWait, sleep } from "./retry-policy.js";
import type { AttemptSignal } from "./signals.js";
import type { TransientError } from "./transient-error.js";

/**
 * What this module uses of the store's transport (transport.ts's `Transport`, spelled out
 * here: importing that module's types would close an import cycle, as it loads this one).
 */
interface Transport {
  readonly settings: Pick<HttpStoreSettings, "retries" | "retryDelay" | "maxRetryDelay" | "timeout">;
  readonly kit: {
    displayUrl(url: string): string;
    isSuccess(status: number): boolean;
    readonly TransientError: typeof TransientError;
  };
}

/**
 * An attempt of `request` that did not give a result: the response the handler left
 * UNHANDLED, or what was thrown (with the response when one had arrived), and the
 * attempt's signal (disposed; it still says whether it timed out or stalled).
 */
export interface FailedAttempt {
  readonly response: Response | undefined;
  readonly error?: unknown;
  readonly limit: AttemptSignal;
  readonly idleTimeout: number;
}

function describeStatus(response: Response): string {
  return `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // undici reports "fetch failed" and puts the reason (ECONNREFUSED, "other side closed"...) in cause.
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return `${error.message}${cause}`;
}

/** `ABORTED` for `spec`, whose caller's `signal` aborted. */
export function aborted(t: Transport, spec: RequestSpec, signal: AbortSignal): ZarrError {
  return new ZarrError("ABORTED", `${spec.method} ${t.kit.displayUrl(spec.url)} (key "${spec.key}") was aborted`, {
    key: spec.key,
    cause: signal.reason,
  });
}

/** `INVALID_ARGUMENT`: the store's `headers` option threw (or gave something `Headers` refuses). */
export function headersFailed(t: Transport, spec: RequestSpec, error: unknown): ZarrError {
  return new ZarrError("INVALID_ARGUMENT", `Could not build the request headers for ${spec.method} ${t.kit.displayUrl(spec.url)}: ${describeError(error)}`, {
    key: spec.key,
    cause: error,
  });
}

/**
 * After attempt number `attempt` of `spec` failed: throws the error that ends the request
 * (an aborted caller, a status that is not retried, a body too large, a stalled body, the
 * last attempt), else waits before the next attempt (backoff, or the `Retry-After` the
 * server asked for).
 */
export async function afterFailure(t: Transport, spec: RequestSpec, attempt: number, failed: FailedAttempt): Promise<void> {
  const { retries, retryDelay, maxRetryDelay, timeout } = t.settings;
  const { signal } = spec;
  const where = `${spec.method} ${t.kit.displayUrl(spec.url)} (key "${spec.key}")`;
  const { response, error, limit } = failed;
  let problem: string;
  let retryAfter: number | undefined;
  let cause: unknown;
  if (!("error" in failed) && response !== undefined) {
    // The handler left the response UNHANDLED.
    if (!isRetryableStatus(response.status)) {
      if (signal?.aborted) throw aborted(t, spec, signal);
      const unexpected = t.kit.isSuccess(response.status) ? "unexpected " : "";
      throw new ZarrError("STORE_FAILED", `${where} failed with ${unexpected}${describeStatus(response)} (attempt ${attempt} of ${retries + 1}; not retried)`, {
        key: spec.key,
      });
    }
    problem = describeStatus(response);
    retryAfter = parseRetryAfter(response.headers.get("retry-after"));
  } else {
    if (signal?.aborted) throw aborted(t, spec, signal);
    if (error instanceof ZarrError) throw error;
    if (error instanceof BodyLimitExceeded) {
      throw new ZarrError("STORE_TOO_LARGE", `${where}: ${error.message} (not retried)`, { key: spec.key, cause: error });
    }
    // A server that sent nothing for so long is not asked again: the wait was long already.
    if (limit.stalled()) {
      throw new ZarrError("STORE_FAILED", `${where} stalled: no bytes arrived for ${failed.idleTimeout} ms (idleTimeout; not retried)`, {
        key: spec.key,
        cause: error,
      });
    }
    cause = error;
    if (limit.timedOut()) problem = `the request timed out after ${timeout} ms`;
    else if (error instanceof t.kit.TransientError) problem = error.message;
    else problem = `network error: ${describeError(error)}`;
  }
  if (attempt > retries) {
    throw new ZarrError("STORE_FAILED", `${where} failed after ${attempt} attempt${attempt === 1 ? "" : "s"}: ${problem}`, {
      key: spec.key,
      cause,
    });
  }
  if (!(await sleep(retryWait(attempt - 1, retryDelay, maxRetryDelay, retryAfter), signal))) {
    throw aborted(t, spec, signal as AbortSignal);
  }
}
