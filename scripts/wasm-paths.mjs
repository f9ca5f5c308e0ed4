// Tests that a codec's WebAssembly kernel and its TypeScript path agree: the same bytes, or
// the same coded error (code and message). Shared by the codec packages' kernel tests.
import { expect } from "vitest";

/** What `f` gives: its bytes (as hex, for readable diffs) or its coded error. */
function outcome(f) {
  try {
    return { bytes: Buffer.from(f()).toString("hex") };
  } catch (error) {
    if (typeof error?.code === "string") return { code: error.code, message: error.message };
    throw error;
  }
}

/**
 * A checker that runs `f` with kernels on, then off (`setWasmKernels` of the package's
 * @zarr/spec), expects the same outcome and returns it. Kernels are left on. `message`
 * rewrites error messages before they are compared (for details another package words
 * differently on its two paths); by default they must be equal.
 */
export function samePaths(setWasmKernels, message = (m) => m) {
  const compared = (o) => ("message" in o ? { ...o, message: message(o.message) } : o);
  return (f) => {
    setWasmKernels(true);
    const wasm = outcome(f);
    setWasmKernels(false);
    let ts;
    try {
      ts = outcome(f);
    } finally {
      setWasmKernels(true);
    }
    expect(compared(wasm)).toEqual(compared(ts));
    return wasm;
  };
}
