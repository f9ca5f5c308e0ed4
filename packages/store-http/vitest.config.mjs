import { zarrVitestConfig } from "../../vitest.shared.mjs";

// Every test runs twice: with Node's global fetch (undici), and with the global fetch
// replaced by this package's node:http transport (test/use-node-fetch.ts), which
// HttpStore must treat exactly the same.
const base = zarrVitestConfig();
export default {
  ...base,
  test: {
    ...base.test,
    projects: [
      { extends: true, test: { name: "fetch" } },
      { extends: true, test: { name: "node-fetch", setupFiles: ["./test/use-node-fetch.ts"] } },
    ],
  },
};
