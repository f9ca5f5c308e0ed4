// Setup file of the "node-fetch" test project: the global fetch becomes nodeFetch, so every
// HttpStore (whose default fetch is looked up at call time) goes through node:http.
import { nodeFetch } from "../src/node-fetch.js";

globalThis.fetch = nodeFetch as typeof fetch;
