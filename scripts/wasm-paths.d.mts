/** What a call gave: its bytes as hex, or its coded error. */
export type Outcome = { bytes: string } | { code: string; message: string };
/** A checker that runs `f` with WebAssembly kernels on and off and expects the same outcome. */
export function samePaths(setWasmKernels: (on: boolean) => void, message?: (message: string) => string): (f: () => Uint8Array) => Outcome;
