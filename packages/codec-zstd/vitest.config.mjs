import { zarrVitestConfig } from "../../vitest.shared.mjs";

// Every test file runs with the WebAssembly decoder (the default where it can run); the
// decoder's own tests run once more with kernels off, so the TypeScript fallback stays tested.
const typescriptPath = zarrVitestConfig({
  name: "typescript",
  include: ["test/decoder*.test.ts", "test/decode-into.test.ts"],
  env: { ZARR_WASM: "0" },
});
export default zarrVitestConfig({ projects: [zarrVitestConfig({ name: "wasm" }), typescriptPath] });
