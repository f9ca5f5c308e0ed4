import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { requirePeer } from "../../../scripts/test-env.mjs";
import type { DecodedArray } from "../src/index.js";

let xarrayPresent: boolean | undefined;
/** Skips the running test without Debian's python3-xarray (outside CI; in CI it fails). */
export function requireXarray(): void {
  if (xarrayPresent === undefined) {
    try {
      execFileSync("/usr/bin/python3", ["-c", "import xarray, cftime, zarr"], { stdio: "ignore", timeout: 60_000 });
      xarrayPresent = !process.env.ZARR_TEST_NO_PYTHON;
    } catch {
      xarrayPresent = false;
    }
  }
  requirePeer(xarrayPresent, "python3-xarray (xarray 2023.01 + cftime)");
}

/** Runs test/python/xarray_peer.py; returns stdout. */
export function xarrayPeer(...args: string[]): string {
  return execFileSync("/usr/bin/python3", [join(import.meta.dirname, "python", "xarray_peer.py"), ...args], {
    encoding: "utf8",
    env: { ...process.env, PYTHONWARNINGS: "ignore" },
    timeout: 120_000,
    maxBuffer: 64 << 20,
  });
}

/** What xarray_peer.py dump prints. */
export interface XarrayDump {
  dims: Record<string, number>;
  coords: string[];
  data_vars: string[];
  attrs: Record<string, unknown>;
  variables: Record<string, { dims: string[]; dtype: string; values: unknown[]; attrs: Record<string, unknown> }>;
}

/** Decoded values in the JSON form the Python side dumps (NaN/NaT → null, Dates as ISO with microseconds, cftime as parts). */
export function asDumped(decoded: DecodedArray): unknown[] {
  switch (decoded.kind) {
    case "number":
      return Array.from(decoded.data, (v) => (typeof v === "number" && Number.isNaN(v) ? null : Number(v)));
    case "datetime":
      return decoded.data.map((d) => (d === null ? null : `${d.toISOString().slice(0, 23)}000`));
    case "cftime":
      return decoded.data.map((d) => {
        if (d === null) return null;
        const { calendar: _, ...parts } = d;
        return parts;
      });
    case "string":
    case "bool":
      return decoded.data;
    default:
      return Array.from(decoded.data as ArrayLike<unknown>);
  }
}

/** NumPy's dtype name for what we decoded (`datetime64[ns]` for Dates, `object` for cftime dates and vlen strings). */
export function dumpedDtype(decoded: DecodedArray, xarrayDtype: string): string {
  if (decoded.kind === "number") return decoded.dtype;
  if (decoded.kind === "bool") return "bool";
  if (decoded.kind === "datetime") return "datetime64[ns]";
  if (decoded.kind === "cftime") return "object";
  if (decoded.kind === "string") return /^[<>|]?[SU]\d+$/.test(xarrayDtype) || xarrayDtype === "object" ? xarrayDtype : "string";
  return decoded.dtype;
}
