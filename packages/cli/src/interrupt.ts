/**
 * Ctrl-C for the commands that write (`convert`, `cp`, `get`, `geozarr`): the first one
 * aborts the command's signal, so it stops between chunks or keys and cleans up; a second
 * one exits at once with status 130.
 */

/**
 * Runs `body` with a signal that the first of `signals` received aborts; another one while
 * `body` winds down exits at once with status 130. The listeners are removed afterwards.
 *
 * @example
 * ```ts
 * await interruptible((signal) => get(array, null, { signal }));
 * await interruptible((signal) => copy(src, dst, { signal }), ["SIGINT", "SIGTERM"]);
 * ```
 */
export async function interruptible<T>(body: (signal: AbortSignal) => Promise<T>, signals: readonly NodeJS.Signals[] = ["SIGINT"]): Promise<T> {
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(130);
    controller.abort(new Error("interrupted"));
  };
  for (const s of signals) process.on(s, onSignal);
  try {
    return await body(controller.signal);
  } finally {
    for (const s of signals) process.off(s, onSignal);
  }
}
