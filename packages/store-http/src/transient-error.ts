/**
 * A failed attempt that another attempt may fix: a network error, a timeout, a body that
 * ended early or a response that contradicts itself. Internal: after the last attempt
 * it becomes a `ZarrError` `STORE_FAILED`.
 */
export class TransientError extends Error {
  override readonly name = "TransientError";
  /** A wait the server asked for (`Retry-After`), in ms. */
  readonly retryAfter: number | undefined;

  constructor(message: string, options: { retryAfter?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.retryAfter = options.retryAfter;
  }
}
