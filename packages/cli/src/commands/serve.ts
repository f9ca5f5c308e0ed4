/** `zarr serve STORE [--port N] [--host H] [--quiet]`: a store over HTTP for local viewing. */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { ZarrError } from "@zarr/spec";
import type { CliIO } from "../cli-io.js";
import { readLimits } from "../read-limits.js";
import { storeRequestHandler } from "../serve-http.js";
import { openStoreArg } from "../store-arg.js";
import { expectPositionals, integerOption, parseCommandArgs, USAGE } from "../usage.js";

/** Runs `zarr serve`: serves until SIGINT or SIGTERM, then closes and resolves. */
export async function serveCommand(args: string[], io: CliIO): Promise<void> {
  const { values, positionals } = parseCommandArgs("serve", args, {
    port: { type: "string", short: "p" },
    host: { type: "string" },
    "allow-origin": { type: "string" },
    quiet: { type: "boolean", short: "q" },
  });
  if (values.help) {
    await io.write(`${USAGE.serve}\n`);
    return;
  }
  const limits = readLimits("serve", values);
  expectPositionals("serve", positionals, 1, 1);
  const port = integerOption("serve", "--port", values.port, 0, 65535, 8000);
  const host = values.host ?? "127.0.0.1";
  const store = await openStoreArg(positionals[0], { writable: false, headers: values.header, limits });
  const server = createServer(
    storeRequestHandler(store, {
      allowOrigin: values["allow-origin"],
      onRequest: values.quiet ? undefined : (r) => io.error(`${r.method} ${r.path} ${r.status} ${r.bytes}`),
    }),
  );
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(new ZarrError("STORE_FAILED", `Cannot listen on ${host}:${port}: ${error.code === "EADDRINUSE" ? "the port is in use (try --port 0)" : error.message}`, { cause: error })),
    );
    server.listen(port, host, resolve);
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  await io.write(`serving ${positionals[0]} at http://${shownHost}:${address.port}/ (read-only; Ctrl-C to stop)\n`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.removeListener("SIGINT", stop);
      process.removeListener("SIGTERM", stop);
      server.closeAllConnections();
      server.close(() => resolve());
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}
