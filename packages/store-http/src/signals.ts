/**
 * Abort signals per request attempt (the wait between attempts is in retry-policy.ts).
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
  /** True once the idle limit (no bytes for `idleTimeout` ms) aborted the attempt. */
  stalled(): boolean;
  /** Bytes arrived: the idle limit starts again. */
  touch(): void;
  /** Stops the timer and detaches from the caller's signal. Call when the attempt is over. */
  dispose(): void;
}

const nothing = (): void => {};
const no = (): boolean => false;
const NEVER: AttemptSignal = { signal: undefined, timedOut: no, stalled: no, touch: nothing, dispose: nothing };

/**
 * A signal for one attempt that aborts on the caller's signal, after `timeout` ms, or when
 * no bytes arrived for `idleTimeout` ms (counted from the start and from each `touch`).
 */
export function attemptSignal(caller: AbortSignal | undefined, timeout: number, idleTimeout = Infinity): AttemptSignal {
  const limited = timeout <= MAX_TIMER_DELAY;
  const idleLimited = idleTimeout <= MAX_TIMER_DELAY;
  if (!limited && !idleLimited) {
    return caller === undefined ? NEVER : { signal: caller, timedOut: no, stalled: no, touch: nothing, dispose: nothing };
  }
  const controller = new AbortController();
  let timedOut = false;
  let stalled = false;
  const timer = limited
    ? setTimeout(() => {
        timedOut = true;
        controller.abort(new DOMException(`The request timed out after ${timeout} ms`, "TimeoutError"));
      }, timeout)
    : undefined;
  const stall = (): void => {
    stalled = true;
    controller.abort(new DOMException(`No bytes arrived for ${idleTimeout} ms`, "TimeoutError"));
  };
  let idle = idleLimited ? setTimeout(stall, idleTimeout) : undefined;
  const onAbort = (): void => controller.abort(caller?.reason);
  // The caller may have aborted while the request was being prepared: no event will come.
  if (caller?.aborted) onAbort();
  else caller?.addEventListener("abort", onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut && !caller?.aborted,
    stalled: () => stalled && !caller?.aborted,
    touch() {
      if (idle === undefined || stalled) return;
      // Node's timers restart in place; a browser's are numbers, replaced.
      if (typeof idle === "object" && typeof idle.refresh === "function") idle.refresh();
      else {
        clearTimeout(idle);
        idle = setTimeout(stall, idleTimeout);
      }
    },
    dispose() {
      clearTimeout(timer);
      clearTimeout(idle);
      caller?.removeEventListener("abort", onAbort);
    },
  };
}
