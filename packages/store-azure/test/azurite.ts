/**
 * A real Azurite Blob service (Microsoft's emulator, from npm) on 127.0.0.1 with a random
 * port, in memory, started in a fresh temporary directory (its working directory) that
 * `close()` removes. Requests go to path-style URLs `http://127.0.0.1:PORT/devstoreaccount1/…`.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Azurite's well-known development account and key (public, in Microsoft's docs). */
export const DEV_ACCOUNT = "devstoreaccount1";
export const DEV_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

export interface Azurite {
  /** The account's Blob endpoint: `http://127.0.0.1:PORT/devstoreaccount1`. */
  endpoint: string;
  close(): Promise<void>;
}

/** Starts Azurite's Blob service; resolves once it listens. */
export async function startAzurite(): Promise<Azurite> {
  const main = createRequire(import.meta.url).resolve("azurite/dist/src/blob/main.js");
  const cwd = mkdtempSync(join(tmpdir(), "zarr-azurite-"));
  const args = [main, "--blobHost", "127.0.0.1", "--blobPort", "0", "--inMemoryPersistence", "--loose", "--skipApiVersionCheck", "--disableTelemetry", "--disableProductStyleUrl", "--silent"];
  const child: ChildProcess = spawn(process.execPath, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
  const port = await new Promise<number>((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`Azurite did not start:\n${output}`)), 60_000);
    const look = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /listens on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (m !== null) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    child.stdout?.on("data", look);
    child.stderr?.on("data", look);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`Azurite exited with ${code}:\n${output}`));
    });
  });
  return {
    endpoint: `http://127.0.0.1:${port}/${DEV_ACCOUNT}`,
    async close() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
      rmSync(cwd, { recursive: true, force: true });
    },
  };
}

/**
 * An account SAS for the dev account (signed version 2019-12-12, whose string-to-sign has
 * nine fields): Blob service, the resource types and permissions given, valid for an hour.
 * See "Create an account SAS" in the Azure Storage REST docs.
 */
export function accountSas({ permissions = "rwdlac", resourceTypes = "sco", key = DEV_KEY } = {}): string {
  const expiry = new Date(Date.now() + 3600_000).toISOString().replace(/\.\d{3}Z$/, "Z");
  const version = "2019-12-12";
  const toSign = [DEV_ACCOUNT, permissions, "b", resourceTypes, "", expiry, "", "https,http", version, ""].join("\n");
  const sig = createHmac("sha256", Buffer.from(key, "base64")).update(toSign, "utf8").digest("base64");
  return new URLSearchParams({ sv: version, ss: "b", srt: resourceTypes, sp: permissions, se: expiry, spr: "https,http", sig }).toString();
}

/** Creates `container` (public read access for blobs and listing when `publicAccess`). */
export async function createContainer(azurite: Azurite, container: string, sas: string, publicAccess = false): Promise<void> {
  const headers: Record<string, string> = { "x-ms-version": "2021-08-06" };
  if (publicAccess) headers["x-ms-blob-public-access"] = "container";
  const response = await fetch(`${azurite.endpoint}/${container}?restype=container&${sas}`, { method: "PUT", headers });
  if (response.status !== 201) throw new Error(`creating container ${container}: HTTP ${response.status} ${await response.text()}`);
}
