/** Runs a decode on the TypeScript path and on the WebAssembly kernel and checks they agree. */
import { setWasmKernels, ZarrError } from "@zarr/spec";
import { expect } from "vitest";
import { sameBytes } from "./reference.js";

/** What a decode gave: its bytes, or its error's code. */
export type Outcome = { bytes: Uint8Array } | { code: string; message: string };

function outcome(decode: () => Uint8Array): Outcome {
  try {
    return { bytes: decode().slice() };
  } catch (error) {
    if (!(error instanceof ZarrError)) throw error;
    return { code: error.code, message: error.message };
  }
}

/**
 * Runs `decode` on the TypeScript path, then on the kernel, and checks they agree: the same
 * bytes, or errors with the same code. Leaves kernels on.
 */
export function samePaths(decode: () => Uint8Array, name: string): Outcome {
  setWasmKernels(false);
  const ts = outcome(decode);
  setWasmKernels(true);
  const wasm = outcome(decode);
  if ("bytes" in ts && "bytes" in wasm) {
    expect(sameBytes(ts.bytes, wasm.bytes), `${name}: different bytes`).toBe(true);
  } else {
    expect("code" in wasm ? wasm.code : "decoded", `${name}: ${"code" in ts ? ts.message : "decoded"}`).toBe("code" in ts ? ts.code : "decoded");
  }
  return wasm;
}
