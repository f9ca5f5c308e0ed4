/** The error of a command called wrongly (a module of its own: option parsers and usage texts both throw it). */

/** A mistake in how the command was called: printed with the command's usage, exit status 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** The command whose usage to print (`undefined`: the general usage). */
    readonly command?: string,
  ) {
    super(message);
    this.name = "UsageError";
  }
}
