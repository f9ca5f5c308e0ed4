/**
 * The error of a body longer than a store accepts. Its own module: a store's whole-value
 * reads throw it too, and they should not pull the bounded body readers (`bounded-body.ts`,
 * used only on range paths) into a bundle's first chunk.
 */

/**
 * Thrown when a body is longer than the read accepts. Internal to store adapters: they
 * turn it into `STORE_TOO_LARGE` naming the request (it is not retried).
 *
 * @example
 * ```ts
 * if (received > limit) throw new BodyLimitExceeded(limit, "the response body");
 * ```
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
