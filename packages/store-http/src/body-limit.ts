/** The error of a body longer than a store accepts (see `bounded-body.ts`, `read-body.ts`). */

/**
 * Thrown when a body is longer than the read accepts. Internal: the store turns it into
 * `STORE_TOO_LARGE` naming the request (it is not retried).
 */
export class BodyLimitExceeded extends Error {
  override readonly name = "BodyLimitExceeded";
  constructor(
    readonly limit: number,
    what: string,
  ) {
    super(`${what} is larger than the ${limit} bytes accepted`);
  }
}
