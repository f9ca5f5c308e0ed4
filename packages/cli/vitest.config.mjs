import { havePythonZarr, skipWithout } from "../../scripts/test-env.mjs";
import { zarrVitestConfig } from "../../vitest.shared.mjs";

// These files generate their inputs (.npy files, reference values) with numpy and check
// results with an independent Python reader; without Python (outside CI) they are left out.
const PYTHON_FILES = ["test/commands.test.ts", "test/errors.test.ts", "test/npy.test.ts", "test/roundtrip.test.ts"];
const noPython = skipWithout(havePythonZarr(), "python3-zarr (numpy)");

// The tests run the built CLI (bin/zarr.js → dist/) as a subprocess; the global setup
// builds it (and the workspace packages it imports) when dist/ is missing or stale.
export default zarrVitestConfig({ globalSetup: ["test/global-setup.ts"], exclude: noPython ? PYTHON_FILES : [] });
