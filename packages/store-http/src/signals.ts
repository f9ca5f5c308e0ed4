/**
 * Abort signals per request attempt, and a sleep that a signal cuts short.
 *
 * The per-attempt signal is combined by hand (a controller, a timer and one listener
 * on the caller's signal, all released when the attempt ends) rather than with
 * `AbortSignal.any([signal, AbortSignal.timeout(ms)])`: a reader typically passes one
 * long-lived signal to thousands of chunk requests, and composite signals that follow
 * a long-lived signal are retained by it in several Node releases (nodejs/node#54614,
 * #55351); `AbortSignal.timeout` also keeps its timer alive after the request is done.
 */

// setTimeout fires at once for delays above 2^31 - 1 ms, so longer limits mean "none".
const MAX_TIMER_DELAY = 2_147_483_647;

/** The signal of one request attempt. */
export interface AttemptSignal {
  /** Aborts when the caller's signal aborts or the attempt's time limit passes; undefined when neither can happen. */
  readonly signal: AbortSignal | undefined;
  /** True once the time limit (not the caller) aborted the attempt. */
  timedOut(): boolean;
  /** Stops the timer and detaches from the caller's signal. Call when the attempt is over. */
  dispose(): void;
}

const NEVER: AttemptSignal = { signal: undefined, timedOut: () => false, dispose: () => {} };

/** A signal for one attempt that aborts on the caller's signal or after `timeout` ms. */
export function attemptSignal(caller: AbortSignal | undefined, timeout: number): AttemptSignal {
  const limited = timeout <= MAX_TIMER_DELAY;
  if (!limited) {
    return caller === undefined ? NEVER : { signal: caller, timedOut: () => false, dispose: () => {} };
  }
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`The request timed out after ${timeout} ms`, "TimeoutError"));
  }, timeout);
  const onAbort = (): void => controller.abort(caller?.reason);
  // The caller may have aborted while the request was being prepared: no event will come.
  if (caller?.aborted) onAbort();
  else caller?.addEventListener("abort", onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut && !caller?.aborted,
    dispose() {
      clearTimeout(timer);
      caller?.removeEventListener("abort", onAbort);
    },
  };
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
