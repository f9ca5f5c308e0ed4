/** Where command output goes, so commands never touch `process` directly. */

/** Standard output and standard error of a command. */
export interface CliIO {
  /** Writes text or bytes to standard output; resolves once written. */
  write(chunk: string | Uint8Array): Promise<void>;
  /** Writes one line (without its newline) to standard error. */
  error(line: string): void;
}

let pipeGuard = false;

/**
 * The process's own standard output and error. A reader that goes away early
 * (`zarr get … | head`) ends the output quietly instead of crashing on EPIPE.
 */
export function processIO(): CliIO {
  if (!pipeGuard) {
    pipeGuard = true;
    // Without a listener an EPIPE 'error' event would crash the process with a stack
    // trace; the failed write itself rejects and ends the command.
    process.stdout.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") process.stderr.write(`zarr: cannot write to standard output: ${error.message}\n`);
    });
  }
  return {
    write: (chunk) =>
      new Promise<void>((resolve, reject) => {
        process.stdout.write(chunk, (error) => (error ? reject(error) : resolve()));
      }),
    error: (line) => {
      process.stderr.write(`${line}\n`);
    },
  };
}
