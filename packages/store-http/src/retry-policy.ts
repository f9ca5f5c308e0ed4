/**
 * When to retry a request, how long to wait before the next attempt, and the wait. Loaded
 * with request-failure.ts, on the first failed attempt.
 */

// setTimeout fires at once for delays above 2^31 - 1 ms (as in signals.ts, which loads up
// front: not shared, so that this module stays out of what every read loads).
const MAX_TIMER_DELAY = 2_147_483_647;

/**
 * True for statuses worth another attempt: 408 and 429 (the server asks us to come back)
 * and server errors, except 501 Not Implemented and 505 HTTP Version Not Supported, which
 * will not change on a retry. Other 4xx statuses are final.
 */
export function isRetryableStatus(status: number): boolean {
  if (status === 408 || status === 429) return true;
  return status >= 500 && status <= 599 && status !== 501 && status !== 505;
}

/**
 * The wait a `Retry-After` header asks for, in ms: delta-seconds (`"120"`) or an HTTP date
 * (`"Wed, 21 Oct 2015 07:28:00 GMT"`). Undefined when absent or unparsable; a date in the
 * past gives 0.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/[a-z]/i.test(text)) return undefined; // "1.5", "-3": not a valid date either
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The wait before retry number `retry` (0 for the first retry): "full jitter" exponential
 * backoff, a uniformly random time in `[0, min(maxDelay, baseDelay·2^retry))`, which
 * spreads out clients that failed together. A `Retry-After` wait replaces it; both are
 * capped at `maxDelay`.
 */
export function retryWait(
  retry: number,
  baseDelay: number,
  maxDelay: number,
  retryAfter: number | undefined,
  random: () => number = Math.random,
): number {
  if (retryAfter !== undefined) return Math.min(retryAfter, maxDelay);
  const ceiling = Math.min(maxDelay, baseDelay * 2 ** Math.min(retry, 52));
  return Math.floor(random() * ceiling);
}

/** Waits `ms` milliseconds; resolves `false` at once (not after the wait) if `signal` aborts first. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve(false);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve(true);
    }, Math.min(ms, MAX_TIMER_DELAY));
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
